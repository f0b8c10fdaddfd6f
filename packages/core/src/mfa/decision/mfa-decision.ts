import type { FactorType } from "../factor-type.js";

/** What the MFA policy decided after a primary authentication. */
export type MfaDecisionType = "NO_MFA_REQUIRED" | "CHALLENGED" | "BLOCKED" | "ESCALATED";

/**
 * The policy's verdict as an object, never a bare boolean: the type, a reason for logs and audit, and
 * for a challenge optionally the factors the user may use. Reasons are written for operators; the
 * HTTP layer decides what a client sees.
 */
export interface MfaDecision {
  readonly type: MfaDecisionType;
  /** Why the policy decided this (audit and logs; e.g. `role ROLE_ADMIN requires MFA`). */
  readonly reason: string;
  /** For CHALLENGED: the factors the user may use, when the provider narrows the flow's factors. */
  readonly factors?: readonly FactorType[];
}

/** Factories of frozen MfaDecision objects. */
export const MfaDecision = Object.freeze({
  /** Authentication completes without a second factor. */
  noMfaRequired(reason = "no MFA required by policy"): MfaDecision {
    return Object.freeze({ type: "NO_MFA_REQUIRED", reason });
  },
  /**
   * A second factor is demanded. `factors`, when given, narrows the flow's factors (deduplicated,
   * order kept); omit it to let the user choose among every factor of the flow.
   */
  challenged(reason: string, factors?: readonly FactorType[]): MfaDecision {
    if (factors === undefined) return Object.freeze({ type: "CHALLENGED", reason });
    return Object.freeze({ type: "CHALLENGED", reason, factors: Object.freeze([...new Set(factors)]) });
  },
  /** Authentication is refused (403 with a stable code). */
  blocked(reason: string): MfaDecision {
    return Object.freeze({ type: "BLOCKED", reason });
  },
  /** Escalated to administrator review: the sign-in is held (202) until an administrator decides. */
  escalated(reason: string): MfaDecision {
    return Object.freeze({ type: "ESCALATED", reason });
  },
});
