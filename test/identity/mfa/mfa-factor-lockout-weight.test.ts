import type { PlatformPlugin } from "@keyward/core";
import { Factor, MfaLockouts, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  newOutboxFile,
  primaryForm,
  verify,
  startFactorFlowServer,
} from "./mfa-test-support.js";

/** A plugin factor whose wrong answer weighs three failures (a guessable PIN, say). */
const heavyPin: PlatformPlugin = {
  id: "test-heavy-pin",
  register(ctx) {
    ctx.registerMember(Factor, {
      useValue: {
        type: "PIN",
        kind: "code",
        label: "PIN",
        challengeState: "FACTOR_CHALLENGE",
        proves: "otp",
        lockoutWeight: 3,
        urls: { verify: "/login/mfa-pin", challengePage: "/mfa/challenge/pin" },
        enrolled: async () => true,
        verify: async ({ answer }) => answer === "2468",
      } satisfies Factor,
    });
  },
};

/** A weight-1 factor whose check takes a database round trip (as a store's find-then-spend does). */
const slowPin: PlatformPlugin = {
  id: "test-slow-pin",
  register(ctx) {
    ctx.registerMember(Factor, {
      useValue: {
        type: "SLOW_PIN",
        kind: "code",
        label: "Slow PIN",
        challengeState: "FACTOR_CHALLENGE",
        proves: "otp",
        lockoutWeight: 1,
        urls: { verify: "/login/mfa-slow-pin", challengePage: "/mfa/challenge/slow-pin" },
        enrolled: async () => true,
        verify: async ({ answer }) => {
          await new Promise((r) => setTimeout(r, 40));
          return answer === "2468";
        },
      } satisfies Factor,
    });
  },
};

// One server: admin is challenged with OTT, PIN or SLOW_PIN (one required); five failures lock the account.
describe("a plugin factor's lockout weight", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startFactorFlowServer({
      outbox: file,
      factors: ["PIN", "SLOW_PIN"],
      plugins: [heavyPin, slowPin],
      properties: { "platform.auth.mfa.maxRetryAttempts": 5 },
    });
  });
  afterAll(() => s.close());

  it("counts one wrong answer as that many failures: the second wrong PIN locks the account (5 allowed)", async () => {
    const b = new Browser(s.url);
    await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    const csrf = await csrfOfSession(b);
    const selected = await b.postJson("/mfa/select-factor", { factorType: "PIN" }, { "x-csrf-token": csrf });
    expect(await selected.json()).toMatchObject({ state: "FACTOR_CHALLENGE", currentFactor: "PIN" });
    const first = await verify(b, csrf, "0000", {}, "/login/mfa-pin");
    expect(first.status).toBe(401);
    expect(await first.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED" });
    const second = await verify(b, csrf, "1111", {}, "/login/mfa-pin");
    const locked = (await second.json()) as { code: string };
    expect(locked.code).toBe("ACCOUNT_LOCKED");
    // The lock holds for the right answer too, and for a new sign-in.
    expect((await verify(b, csrf, "2468", {}, "/login/mfa-pin")).status).not.toBe(200);
    const again = new Browser(s.url);
    const retry = await primaryForm(again, "admin", "admin", true);
    expect(((await retry.json()) as { code?: string }).code).toBe("ACCOUNT_LOCKED");
  });

  it("refuses a right answer in a flow opened before the lock: the lock caps guesses across flows", async () => {
    const admin = await s.platform.resolve(UserRepository).findByUsername("admin");
    await s.platform.resolve(MfaLockouts).unlock(admin?.id ?? "");
    // Flow A waits for its mailed code (one wrong guess: one failure of five).
    const a = new Browser(s.url);
    const { code } = await codeAfter(file, "admin", () => primaryForm(a, "admin", "admin", true));
    const csrfA = await csrfOfSession(a);
    expect((await verify(a, csrfA, code === "000000" ? "111111" : "000000")).status).toBe(401);
    // Flow B spends the rest on the heavy PIN: 1 + 3 + 3 reaches five, the user is locked.
    const b = new Browser(s.url);
    await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    const csrfB = await csrfOfSession(b);
    await b.postJson("/mfa/select-factor", { factorType: "PIN" }, { "x-csrf-token": csrfB });
    expect((await verify(b, csrfB, "0000", {}, "/login/mfa-pin")).status).toBe(401);
    expect(
      ((await (await verify(b, csrfB, "1111", {}, "/login/mfa-pin")).json()) as { code: string }).code,
    ).toBe("ACCOUNT_LOCKED");
    // Flow A's own count is 1 of 5, but the user is locked: its right code is refused.
    const late = await verify(a, csrfA, code);
    expect(late.status).not.toBe(200);
    expect(((await late.json()) as { code: string }).code).toBe("ACCOUNT_LOCKED");
  });

  it("judges at most five of many answers sent at once across flows, however long judging takes", async () => {
    const admin = await s.platform.resolve(UserRepository).findByUsername("admin");
    await s.platform.resolve(MfaLockouts).unlock(admin?.id ?? "");
    const flows: { b: Browser; csrf: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const b = new Browser(s.url);
      await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
      const csrf = await csrfOfSession(b);
      await b.postJson("/mfa/select-factor", { factorType: "SLOW_PIN" }, { "x-csrf-token": csrf });
      flows.push({ b, csrf });
    }
    // Eleven wrong answers and the right one, all at once: each is judged after a 40 ms check.
    const answers = await Promise.all(
      flows.map((f, i) =>
        verify(f.b, f.csrf, i === 11 ? "2468" : String(1000 + i), {}, "/login/mfa-slow-pin"),
      ),
    );
    const codes = await Promise.all(answers.map(async (a) => ((await a.json()) as { code?: string }).code));
    const judged = codes.filter((c) => c === undefined || c === "MFA_FACTOR_VERIFICATION_FAILED");
    expect(judged.length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === "ACCOUNT_LOCKED").length).toBeGreaterThanOrEqual(7);
    expect(await s.platform.resolve(MfaLockouts).lockedUntil(admin?.id ?? "")).toBeDefined();
  });
});
