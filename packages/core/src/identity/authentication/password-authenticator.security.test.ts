import { describe, expect, it } from "vitest";
import {
  ATTACKER_IP,
  authenticatorFixture,
  observable,
  PASSWORD,
  refusal,
  USER_IP,
} from "./password-authenticator.fixture.js";

const WINDOW = 15 * 60_000;

describe("PasswordAuthenticator: no user enumeration", () => {
  it("costs the same hash work for an unknown user, a wrong password, a passwordless account and a right one", async () => {
    const f = await authenticatorFixture();
    const work = async (attempt: () => Promise<unknown>): Promise<number> => {
      f.hasher.reset();
      await attempt().catch(() => undefined);
      return f.hasher.work;
    };
    expect(await work(() => f.login("nobody", PASSWORD, "192.0.2.1"))).toBe(1);
    expect(await work(() => f.login("alice", "wrong", "192.0.2.2"))).toBe(1);
    expect(await work(() => f.login("passwordless", PASSWORD, "192.0.2.3"))).toBe(1);
    expect(await work(() => f.login("alice", PASSWORD, "192.0.2.4"))).toBe(1);
    expect(await work(() => f.login("locked", PASSWORD, "192.0.2.5"))).toBe(1);
  });

  it("answers an unknown user, a wrong password and a passwordless account identically", async () => {
    const f = await authenticatorFixture();
    const unknown = observable(await refusal(f.login("nobody", "wrong", "192.0.2.1")));
    const wrong = observable(await refusal(f.login("alice", "wrong", "192.0.2.2")));
    const passwordless = observable(await refusal(f.login("passwordless", "wrong", "192.0.2.3")));
    expect(unknown).toEqual({ code: "BAD_CREDENTIALS", message: "Bad credentials", details: undefined });
    expect(wrong).toEqual(unknown);
    expect(passwordless).toEqual(unknown);
  });

  it("tells 'locked' and 'disabled' only after the right password", async () => {
    const f = await authenticatorFixture();
    expect((await refusal(f.login("locked", "wrong"))).code).toBe("BAD_CREDENTIALS");
    expect((await refusal(f.login("disabled", "wrong"))).code).toBe("BAD_CREDENTIALS");
    expect(observable(await refusal(f.login("locked", PASSWORD)))).toEqual({
      code: "ACCOUNT_LOCKED",
      message: "Account is locked",
      details: undefined,
    });
    expect((await refusal(f.login("disabled", PASSWORD))).code).toBe("ACCOUNT_DISABLED");
  });

  it("does not count a right password on a locked account as a failure, nor clear the counter", async () => {
    const f = await authenticatorFixture({ limits: { maxFailuresPerAccountAndIp: 2 } });
    await refusal(f.login("locked", "wrong"));
    for (let i = 0; i < 5; i++)
      expect((await refusal(f.login("locked", PASSWORD))).code).toBe("ACCOUNT_LOCKED");
    await refusal(f.login("locked", "wrong"));
    expect((await refusal(f.login("locked", PASSWORD))).code).toBe("TOO_MANY_ATTEMPTS");
  });

  it("throttles unknown usernames exactly like known ones", async () => {
    const f = await authenticatorFixture();
    for (let i = 0; i < 5; i++) await refusal(f.login("nobody", "wrong"));
    for (let i = 0; i < 5; i++) await refusal(f.login("alice", "wrong"));
    const unknown = observable(await refusal(f.login("nobody", "wrong")));
    const known = observable(await refusal(f.login("alice", "wrong")));
    expect(unknown).toEqual({
      code: "TOO_MANY_ATTEMPTS",
      message: "Too many sign-in attempts; try again later",
      details: { retryAfterSeconds: 900 },
    });
    expect(known).toEqual(unknown);
  });
});

describe("PasswordAuthenticator: brute force", () => {
  it("blocks an address hammering an account while the real user signs in from elsewhere", async () => {
    const f = await authenticatorFixture();
    for (let i = 0; i < 5; i++)
      expect((await refusal(f.login("alice", `guess${i}`))).code).toBe("BAD_CREDENTIALS");
    f.hasher.reset();
    expect((await refusal(f.login("alice", "guess5"))).code).toBe("TOO_MANY_ATTEMPTS");
    // Even the right password is refused from the attacker's address: the check comes before the hash.
    expect((await refusal(f.login("alice", PASSWORD))).code).toBe("TOO_MANY_ATTEMPTS");
    expect(f.hasher.work).toBe(0);
    expect((await f.login("alice", PASSWORD, USER_IP)).username).toBe("Alice");
    expect(f.audit.events().at(-2)).toMatchObject({
      type: "auth.login.throttled",
      outcome: "denied",
      principal: "alice",
      remoteAddress: ATTACKER_IP,
      data: { method: "form", scope: "account-ip", retryAfterSeconds: 900 },
    });
  });

  it("blocks an address spraying many usernames, for every username, and only that address", async () => {
    const f = await authenticatorFixture();
    for (let i = 0; i < 50; i++)
      expect((await refusal(f.login(`user${i}`, "Winter2026!"))).code).toBe("BAD_CREDENTIALS");
    f.hasher.reset();
    expect((await refusal(f.login("alice", PASSWORD))).code).toBe("TOO_MANY_ATTEMPTS");
    expect((await refusal(f.login("someone-new", "x"))).code).toBe("TOO_MANY_ATTEMPTS");
    expect(f.hasher.work).toBe(0);
    expect((await f.login("alice", PASSWORD, USER_IP)).userId).toBe(f.alice.id);
  });

  it("clears everything when the window ends", async () => {
    const f = await authenticatorFixture();
    for (let i = 0; i < 50; i++) await refusal(f.login(i < 5 ? "alice" : `user${i}`, "wrong"));
    f.clock.advance(WINDOW - 1_000);
    expect((await refusal(f.login("alice", PASSWORD))).details).toEqual({ retryAfterSeconds: 1 });
    f.clock.advance(1_000);
    expect((await f.login("alice", PASSWORD)).username).toBe("Alice");
    expect((await refusal(f.login("user7", "wrong"))).code).toBe("BAD_CREDENTIALS");
  });

  it("resets the (account, address) counter on success", async () => {
    const f = await authenticatorFixture();
    for (let i = 0; i < 4; i++) await refusal(f.login("alice", "wrong"));
    await f.login("alice", PASSWORD);
    for (let i = 0; i < 4; i++)
      expect((await refusal(f.login("alice", "wrong"))).code).toBe("BAD_CREDENTIALS");
    expect((await f.login("alice", PASSWORD)).username).toBe("Alice");
  });

  it("lets a concurrent burst from one address make no more guesses than the limit", async () => {
    const f = await authenticatorFixture();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refusal(f.login("alice", `burst${i}`)).then((e) => e.code)),
    );
    expect(results.filter((c) => c === "BAD_CREDENTIALS")).toHaveLength(5);
    expect(results.filter((c) => c === "TOO_MANY_ATTEMPTS")).toHaveLength(15);
    expect(f.hasher.work).toBe(5);
  });

  it("refuses attempts beyond the pending bound of one address at once, at no hash cost", async () => {
    const f = await authenticatorFixture({ override: { maxPendingAttemptsPerAddress: 2 } });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => refusal(f.login("alice", "wrong")).then(observable)),
    );
    expect(results.slice(2)).toEqual([
      { code: "TOO_MANY_ATTEMPTS", message: expect.any(String), details: { retryAfterSeconds: 1 } },
      { code: "TOO_MANY_ATTEMPTS", message: expect.any(String), details: { retryAfterSeconds: 1 } },
    ]);
    expect(f.hasher.work).toBe(2);
    expect((await f.login("alice", PASSWORD, USER_IP)).username).toBe("Alice");
  });
});

describe("PasswordAuthenticator: input validation", () => {
  const long = "a".repeat(10 * 1024);
  const cases: [string, unknown, unknown, string[]][] = [
    ["missing username", undefined, PASSWORD, ["username"]],
    ["missing password", "alice", undefined, ["password"]],
    ["both missing", undefined, undefined, ["username", "password"]],
    ["null", null, null, ["username", "password"]],
    ["empty strings", "", "", ["username", "password"]],
    ["blank username", "   ", PASSWORD, ["username"]],
    ["object username", { $ne: "" }, PASSWORD, ["username"]],
    ["array password", "alice", [PASSWORD], ["password"]],
    ["number password", "alice", 12345, ["password"]],
    ["boolean username", true, PASSWORD, ["username"]],
    ["10 KB username", long, PASSWORD, ["username"]],
    ["10 KB password", "alice", long, ["password"]],
    ["257-character username", "a".repeat(257), PASSWORD, ["username"]],
    ["1025-character password", "alice", "p".repeat(1025), ["password"]],
  ];

  it.each(cases)(
    "refuses %s with VALIDATION_FAILED, no hash and no counted failure",
    async (_, username, password, fields) => {
      const f = await authenticatorFixture({
        limits: { maxFailuresPerAccountAndIp: 1, maxFailuresPerIp: 1 },
      });
      for (let i = 0; i < 3; i++) {
        expect(observable(await refusal(f.login(username, password)))).toEqual({
          code: "VALIDATION_FAILED",
          message: "username and password are required",
          details: { fields },
        });
      }
      expect(f.hasher.work + f.hasher.hashes).toBe(0);
      expect((await f.login("alice", PASSWORD)).username).toBe("Alice");
      expect(f.audit.events()[0]).toMatchObject({
        type: "auth.login.failure",
        data: { method: "form", reason: "VALIDATION_FAILED" },
      });
    },
  );

  it("accepts a 256-character username (then answers BAD_CREDENTIALS for it)", async () => {
    const f = await authenticatorFixture();
    expect((await refusal(f.login("a".repeat(256), PASSWORD))).code).toBe("BAD_CREDENTIALS");
  });
});

describe("PasswordAuthenticator: audit", () => {
  it("never records a password, in any outcome", async () => {
    const f = await authenticatorFixture({ limits: { maxFailuresPerAccountAndIp: 2 } });
    const secrets = ["hunter2-wrong-secret", "Pa55-second-wrong", "third-wrong-password"];
    await refusal(f.login("alice", secrets[0]));
    await refusal(f.login("nobody", secrets[1]));
    await refusal(f.login("alice", secrets[1]));
    await refusal(f.login("alice", secrets[2])); // throttled
    await refusal(f.login("locked", PASSWORD));
    await refusal(f.login("disabled", PASSWORD));
    await refusal(f.login(undefined, secrets[2]));
    await refusal(f.login({ toString: () => "x" }, secrets[0]));
    await f.login("alice", PASSWORD, USER_IP);
    const serialized = JSON.stringify(f.audit.events());
    expect(f.audit.events().map((e) => e.type)).toEqual([
      "auth.login.failure",
      "auth.login.failure",
      "auth.login.failure",
      "auth.login.throttled",
      "auth.login.failure",
      "auth.login.failure",
      "auth.login.failure",
      "auth.login.failure",
      "auth.login.success",
    ]);
    for (const secret of [...secrets, PASSWORD]) expect(serialized).not.toContain(secret);
    expect(serialized).not.toMatch(/password"?\s*:/i);
  });

  it("records the submitted username cut to 256 characters, never splitting a surrogate pair", async () => {
    const f = await authenticatorFixture();
    await refusal(f.login("u".repeat(300), PASSWORD));
    await refusal(f.login(`${"u".repeat(255)}😀tail`, PASSWORD));
    await refusal(f.login(42, PASSWORD));
    const [long, emoji, number] = f.audit.events();
    expect(long?.principal).toBe("u".repeat(256));
    expect(emoji?.principal).toBe("u".repeat(255));
    expect(number?.principal).toBeUndefined();
  });
});
