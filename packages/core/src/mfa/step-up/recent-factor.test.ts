import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { challengeAnswerOf } from "../../identity/asep/challenge-answer.js";
import { authorizationRules } from "../../identity/http-security/authorization-manager.js";
import { AuthorizeHttpRequests } from "../../identity/http-security/http-security.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { createPlatform } from "../../kernel/platform.js";
import { recentFactor, recentFactorRule } from "./recent-factor.js";
import { stepUpChallenge } from "./step-up-challenge.js";

const T0 = Date.UTC(2026, 0, 1);
const withFactor = (type: "otp" | "hwk" | "pwd", at: number): Authentication => ({
  userId: "u1",
  username: "ann",
  authorities: [],
  method: "form",
  authenticatedAt: at,
  factors: [{ type, at }],
});

describe("recentFactor, contributed by the MFA module", () => {
  it("is the contributed rule `recentFactor`, a method of the rule builder that contribution makes", () => {
    expect(authorizationRules([recentFactorRule]).recentFactor).toBe(recentFactor);
    const authorize = new AuthorizeHttpRequests([recentFactorRule]);
    authorize.requestMatchers("/account/**").recentFactor(60_000);
    expect(authorize.rules).toHaveLength(1);
  });

  it("grants an otp/hwk factor within maxAgeMs and asks anyone else for a step-up", async () => {
    const clock = new ManualClock(T0);
    const rule = recentFactor(60_000, () => clock.now());
    expect((await rule.check(withFactor("otp", T0 - 60_000), undefined as never)).granted).toBe(true);
    expect((await rule.check(withFactor("hwk", T0), undefined as never)).granted).toBe(true);
    const stale = await rule.check(withFactor("otp", T0 - 60_001), undefined as never);
    expect([stale.granted, stale.stepUp?.maxAgeMs]).toEqual([false, 60_000]);
    const password = await rule.check(withFactor("pwd", T0), undefined as never);
    expect(password.stepUp?.maxAgeMs).toBe(60_000);
    const anonymous = await rule.check(undefined, undefined as never);
    expect([anonymous.granted, anonymous.stepUp]).toEqual([false, undefined]);
  });

  it("reads the platform's Clock once attached to a chain, unless given its own", async () => {
    const clock = new ManualClock(T0 + 3_600_000);
    const platform = createPlatform({ env: {}, overrides: (o) => o.override(Clock, { useValue: clock }) });
    const rule = recentFactor(60_000);
    rule.attach(platform.container);
    expect((await rule.check(withFactor("otp", T0), undefined as never)).granted).toBe(false);
    clock.set(T0 + 1_000);
    expect((await rule.check(withFactor("otp", T0), undefined as never)).granted).toBe(true);
    const own = recentFactor(60_000, () => T0);
    own.attach(platform.container);
    clock.set(T0 + 3_600_000);
    expect((await own.check(withFactor("otp", T0), undefined as never)).granted).toBe(true);
  });
});

describe("stepUpChallenge", () => {
  it("builds 401 MFA_CHALLENGE_REQUIRED with maxAgeSeconds and the started fields, answered by redirect or bearer error", () => {
    const error = stepUpChallenge(300_000).error({
      mfaUrl: "/mfa/select",
      mfaSessionId: "s1",
      currentState: "X",
    });
    expect([error.code, error.message]).toEqual([
      "MFA_CHALLENGE_REQUIRED",
      "A recent second factor is required for this resource",
    ]);
    expect(error.details).toEqual({
      maxAgeSeconds: 300,
      mfaUrl: "/mfa/select",
      mfaSessionId: "s1",
      currentState: "X",
    });
    expect(challengeAnswerOf(error)).toEqual({
      browserRedirect: "/mfa/select",
      bearerError: "insufficient_user_authentication",
    });
    const none = stepUpChallenge(1_400).error(undefined);
    expect(none.details).toEqual({ maxAgeSeconds: 1 });
    expect(challengeAnswerOf(none)?.browserRedirect).toBeUndefined();
  });
});
