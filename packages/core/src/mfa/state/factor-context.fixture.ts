import type { Authentication } from "../../identity/authentication/authentication.js";
import { type FactorContext, newFactorContext } from "./factor-context.js";
import type { MfaState } from "./mfa-state.js";

/** Test fixture: a primary form sign-in of `alice`. */
export const PRIMARY: Authentication = {
  userId: "u-1",
  username: "alice",
  authorities: ["ROLE_ADMIN"],
  method: "form",
  authenticatedAt: 0,
  factors: [{ type: "pwd", at: 0 }],
};

/** Test fixture: a fresh context (both factors available, two required unless overridden). */
export function freshContext(now: number, overrides: Partial<FactorContext> = {}): FactorContext {
  const base = newFactorContext({
    mfaSessionId: "mfa-1",
    flowTypeName: "mfa",
    callerBinding: "session-1",
    primary: PRIMARY,
    requiredFactors: 2,
    availableFactors: ["OTT", "PASSKEY"],
    now,
  });
  return { ...base, ...overrides };
}

/** Test fixture: a consistent context sitting in `state` (current factor and challenge as that state has them). */
export function contextIn(
  state: MfaState,
  now: number,
  overrides: Partial<FactorContext> = {},
): FactorContext {
  const challenge = (factor: string) => ({ factor, issuedAt: now, expiresAt: now + 60_000 });
  const byState: Partial<Record<MfaState, Partial<FactorContext>>> = {
    AWAITING_CHALLENGE_INITIATION: { currentFactor: "OTT" },
    OTT_CHALLENGE: { currentFactor: "OTT", challenge: { ...challenge("OTT"), codeHash: "h1" } },
    PASSKEY_CHALLENGE: { currentFactor: "PASSKEY", challenge: challenge("PASSKEY") },
    // A generic factor (a plugin's) waits here; TOTP stands for any of them.
    FACTOR_CHALLENGE: { currentFactor: "TOTP", challenge: challenge("TOTP") },
  };
  return freshContext(now, { state, ...byState[state], ...overrides });
}

/** Test fixture: freezes `value` and everything in it, so a mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
