/**
 * Every state of an MFA flow. The first six are waiting states a request can move on; the rest are
 * terminal: once a flow reaches one, no event is accepted and the flow is over.
 */
export const MFA_STATES = [
  "PRIMARY_AUTHENTICATION_COMPLETED",
  "FACTOR_SELECTION",
  "AWAITING_CHALLENGE_INITIATION",
  "OTT_CHALLENGE",
  "PASSKEY_CHALLENGE",
  "FACTOR_CHALLENGE",
  "MFA_SUCCESSFUL",
  "MFA_NOT_REQUIRED",
  "MFA_FAILED_TERMINAL",
  "MFA_CANCELLED",
  "MFA_TIMEOUT",
  "MFA_SESSION_EXPIRED",
  "MFA_ACCOUNT_LOCKED",
  "MFA_SYSTEM_ERROR",
] as const;

/** A state of an MFA flow (see `MFA_STATES`). */
export type MfaState = (typeof MFA_STATES)[number];

/** The states that end a flow; they accept no event. */
export const TERMINAL_MFA_STATES: readonly MfaState[] = [
  "MFA_SUCCESSFUL",
  "MFA_NOT_REQUIRED",
  "MFA_FAILED_TERMINAL",
  "MFA_CANCELLED",
  "MFA_TIMEOUT",
  "MFA_SESSION_EXPIRED",
  "MFA_ACCOUNT_LOCKED",
  "MFA_SYSTEM_ERROR",
];

const TERMINAL = new Set<MfaState>(TERMINAL_MFA_STATES);

/** True when `state` ends the flow (no event is accepted from it). */
export function isTerminal(state: MfaState): boolean {
  return TERMINAL.has(state);
}
