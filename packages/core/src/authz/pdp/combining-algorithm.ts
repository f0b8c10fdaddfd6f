import type { PolicyEffect } from "../policy/policy.js";

/** How several matching URL policies combine (`platform.policy.combining-algorithm`). */
export type CombiningAlgorithm =
  | "FIRST_APPLICABLE"
  | "DENY_OVERRIDES"
  | "PERMIT_OVERRIDES"
  | "DENY_UNLESS_PERMIT"
  | "PERMIT_UNLESS_DENY";

/** Every algorithm, FIRST_APPLICABLE (the default) first. */
export const COMBINING_ALGORITHMS: readonly CombiningAlgorithm[] = Object.freeze([
  "FIRST_APPLICABLE",
  "DENY_OVERRIDES",
  "PERMIT_OVERRIDES",
  "DENY_UNLESS_PERMIT",
  "PERMIT_UNLESS_DENY",
]);

/** What one policy says about a request under the XACML algorithms. */
export type PolicyOutcome = "Permit" | "Deny" | "NotApplicable";

/** The outcome of a policy whose target matched: its effect when the condition holds, else NotApplicable. */
export function outcomeOf(effect: PolicyEffect, conditionHolds: boolean): PolicyOutcome {
  if (!conditionHolds) return "NotApplicable";
  return effect === "ALLOW" ? "Permit" : "Deny";
}

/**
 * Whether an algorithm can stop early: given the outcome just computed, the final answer is known.
 * DENY_OVERRIDES stops at the first Deny, PERMIT_OVERRIDES and DENY_UNLESS_PERMIT at the first
 * Permit, PERMIT_UNLESS_DENY at the first Deny.
 */
export function isFinal(algorithm: CombiningAlgorithm, outcome: PolicyOutcome): boolean {
  switch (algorithm) {
    case "DENY_OVERRIDES":
    case "PERMIT_UNLESS_DENY":
      return outcome === "Deny";
    case "PERMIT_OVERRIDES":
    case "DENY_UNLESS_PERMIT":
      return outcome === "Permit";
    default:
      return outcome !== "NotApplicable";
  }
}

/**
 * The answer when no policy gave a final outcome: DENY_OVERRIDES grants unless a Deny was seen
 * (it would have been final), so it grants on Permit or nothing; PERMIT_OVERRIDES denies when a Deny
 * was seen and no Permit; DENY_UNLESS_PERMIT denies; PERMIT_UNLESS_DENY grants. `noMatch` is the
 * configured answer when no policy applied at all (allow by default) for the algorithms that do not
 * fix it themselves.
 */
export function undecided(
  algorithm: CombiningAlgorithm,
  sawPermit: boolean,
  sawDeny: boolean,
  noMatch: boolean,
): boolean {
  switch (algorithm) {
    case "DENY_UNLESS_PERMIT":
      return false;
    case "PERMIT_UNLESS_DENY":
      return true;
    case "PERMIT_OVERRIDES":
      return sawDeny ? false : sawPermit || noMatch;
    case "DENY_OVERRIDES":
      return sawPermit || noMatch;
    default:
      return noMatch;
  }
}
