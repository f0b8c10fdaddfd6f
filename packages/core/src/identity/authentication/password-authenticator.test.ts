import { describe, expect, it } from "vitest";
import type { PlatformErrorCode } from "../../kernel/error-code-table.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { MAX_PASSWORD_LENGTH, ScryptPasswordHasher } from "../password/scrypt-password-hasher.js";
import type { UserRepository } from "../users/user-repository.js";
import {
  ATTACKER_IP,
  authenticatorFixture,
  PASSWORD,
  refusal,
  USER_IP,
} from "./password-authenticator.fixture.js";
import { MAX_PASSWORD_INPUT_LENGTH, PasswordAuthenticator } from "./password-authenticator.js";

describe("PasswordAuthenticator", () => {
  it("signs a user in with the stored username, authorities, method, time and a pwd factor", async () => {
    const f = await authenticatorFixture();
    f.clock.advance(5_000);
    const auth = await f.authenticator.authenticate({
      username: " ALICE ",
      password: PASSWORD,
      remoteAddress: USER_IP,
      method: "rest",
    });
    const at = f.clock.now();
    expect(auth).toEqual({
      userId: f.alice.id,
      username: "Alice",
      authorities: ["ROLE_USER"],
      method: "rest",
      authenticatedAt: at,
      factors: [{ type: "pwd", at }],
    });
    expect(Object.isFrozen(auth)).toBe(true);
    expect(f.hasher.verifies).toBe(1);
    expect(f.audit.events()).toEqual([
      {
        type: "auth.login.success",
        outcome: "success",
        principal: " ALICE ",
        remoteAddress: USER_IP,
        at,
        data: { method: "rest", userId: f.alice.id, username: "Alice" },
      },
    ]);
  });

  it("audits a bad password as a failure with its reason and throws BAD_CREDENTIALS", async () => {
    const f = await authenticatorFixture();
    expect((await refusal(f.login("alice", "wrong"))).code).toBe("BAD_CREDENTIALS");
    expect(f.audit.events()).toEqual([
      expect.objectContaining({
        type: "auth.login.failure",
        outcome: "failure",
        principal: "alice",
        remoteAddress: ATTACKER_IP,
        data: { method: "form", reason: "BAD_CREDENTIALS" },
      }),
    ]);
  });

  it("re-hashes a hash made with old parameters on sign-in and stores it", async () => {
    const f = await authenticatorFixture();
    const hasher = new ScryptPasswordHasher({ costLog2: 11 });
    const authenticator = new PasswordAuthenticator({ ...f, hasher });
    const signIn = () =>
      authenticator.authenticate({
        username: "alice",
        password: PASSWORD,
        remoteAddress: USER_IP,
        method: "form",
      });
    const before = (await f.users.findById(f.alice.id))!;
    expect(before.passwordHash).toMatch(/^\$scrypt\$ln=10,/);
    await signIn();
    const after = (await f.users.findById(f.alice.id))!;
    expect(after.passwordHash).toMatch(/^\$scrypt\$ln=11,/);
    expect(after.version).toBe(before.version + 1);
    expect(await hasher.verify(PASSWORD, after.passwordHash!)).toBe(true);
    // Current parameters now: the next sign-in leaves the hash alone.
    await signIn();
    expect((await f.users.findById(f.alice.id))!.version).toBe(after.version);
    expect(f.audit.events().map((e) => e.type)).toEqual([
      "auth.password.rehashed",
      "auth.login.success",
      "auth.login.success",
    ]);
  });

  it("still signs in when the re-hash loses a race (CONFLICT), without auditing it as a problem", async () => {
    const f = await authenticatorFixture();
    const users: UserRepository = Object.assign(Object.create(f.users) as UserRepository, {
      update: async () => {
        throw new PlatformError("CONFLICT", "Account was changed concurrently (stale version)");
      },
    });
    const authenticator = new PasswordAuthenticator({
      ...f,
      users,
      hasher: new ScryptPasswordHasher({ costLog2: 11 }),
    });
    const auth = await authenticator.authenticate({
      username: "alice",
      password: PASSWORD,
      remoteAddress: USER_IP,
      method: "form",
    });
    expect(auth.userId).toBe(f.alice.id);
    expect(f.audit.events().map((e) => e.type)).toEqual(["auth.login.success"]);
  });

  it("still signs in when storing the re-hash fails otherwise, and audits that", async () => {
    const f = await authenticatorFixture();
    const users: UserRepository = Object.assign(Object.create(f.users) as UserRepository, {
      update: async () => {
        throw new Error("connection reset");
      },
    });
    const authenticator = new PasswordAuthenticator({
      ...f,
      users,
      hasher: new ScryptPasswordHasher({ costLog2: 11 }),
    });
    await authenticator.authenticate({
      username: "alice",
      password: PASSWORD,
      remoteAddress: USER_IP,
      method: "form",
    });
    expect(f.audit.events()).toEqual([
      expect.objectContaining({
        type: "auth.password.rehash-failed",
        data: { userId: f.alice.id, reason: "INTERNAL_ERROR" },
      }),
      expect.objectContaining({ type: "auth.login.success" }),
    ]);
  });

  it("audits a failing user store as a failure, rethrows its error and counts no failed sign-in", async () => {
    const f = await authenticatorFixture({ limits: { maxFailuresPerAccountAndIp: 1 } });
    // A code of the adapter's own, in no table of ours.
    const cause = new PlatformError("STORE_UNAVAILABLE" as PlatformErrorCode, "store down");
    const users: UserRepository = Object.assign(Object.create(f.users) as UserRepository, {
      findByUsername: async () => {
        throw cause;
      },
    });
    const authenticator = new PasswordAuthenticator({ ...f, users });
    await expect(
      authenticator.authenticate({
        username: "alice",
        password: "x",
        remoteAddress: USER_IP,
        method: "form",
      }),
    ).rejects.toBe(cause);
    expect(f.audit.events()).toEqual([
      expect.objectContaining({
        type: "auth.login.failure",
        data: { method: "form", reason: "STORE_UNAVAILABLE" },
      }),
    ]);
    expect(await f.throttle.check({ username: "alice", remoteAddress: USER_IP })).toEqual({ allowed: true });
  });

  it("signs in even when the audit sink throws", async () => {
    const f = await authenticatorFixture();
    const audit = {
      record(): void {
        throw new Error("sink broken");
      },
    };
    const authenticator = new PasswordAuthenticator({ ...f, audit });
    const auth = await authenticator.authenticate({
      username: "alice",
      password: PASSWORD,
      remoteAddress: USER_IP,
      method: "form",
    });
    expect(auth.username).toBe("Alice");
    const refused = await refusal(
      authenticator.authenticate({
        username: "alice",
        password: "nope",
        remoteAddress: USER_IP,
        method: "form",
      }),
    );
    expect(refused.code).toBe("BAD_CREDENTIALS");
  });

  it("accepts passwords up to the scrypt hasher's limit", async () => {
    expect(MAX_PASSWORD_INPUT_LENGTH).toBe(MAX_PASSWORD_LENGTH);
    const f = await authenticatorFixture();
    expect((await refusal(f.login("alice", "p".repeat(MAX_PASSWORD_LENGTH)))).code).toBe("BAD_CREDENTIALS");
  });
});
