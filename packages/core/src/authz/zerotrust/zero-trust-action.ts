/**
 * The zero-trust verdict for a caller: ALLOW, BLOCK, CHALLENGE (step-up MFA),
 * ESCALATE (human review) or PENDING_ANALYSIS (analysis still running).
 */
export type ZeroTrustAction = "ALLOW" | "BLOCK" | "CHALLENGE" | "ESCALATE" | "PENDING_ANALYSIS";

/** Every action, in a stable order. */
export const ZERO_TRUST_ACTIONS: readonly ZeroTrustAction[] = Object.freeze([
  "ALLOW",
  "BLOCK",
  "CHALLENGE",
  "ESCALATE",
  "PENDING_ANALYSIS",
]);

/** Maps any string to an action; an unknown one is ESCALATE (a human reviews what we cannot read). */
export function toZeroTrustAction(value: string): ZeroTrustAction {
  const upper = value.trim().toUpperCase();
  return (ZERO_TRUST_ACTIONS as readonly string[]).includes(upper) ? (upper as ZeroTrustAction) : "ESCALATE";
}
