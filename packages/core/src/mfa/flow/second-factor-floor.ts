import type { Authentication } from "../../identity/authentication/authentication.js";

/**
 * The first authority of `floor` (`platform.auth.mfa.requiredAuthorities`, empty when
 * `platform.auth.mfa.adaptive.allow-skip-for-required-authorities` lifts the floor) that `authentication`
 * holds: its holder always proves a second factor, whatever a policy or an administrator decides.
 */
export function floorRoleOf(
  authentication: Authentication,
  floor: readonly string[] | undefined,
): string | undefined {
  if (floor === undefined || floor.length === 0) return undefined;
  const held = new Set(authentication.authorities);
  return floor.find((a) => held.has(a));
}

/** True when the sign-in proved two kinds of factor (e.g. `pwd` and `otp`), not the primary one alone. */
export function provesSecondFactor(authentication: Authentication): boolean {
  return new Set(authentication.factors.map((f) => f.type)).size >= 2;
}
