/**
 * Every event an MFA flow reacts to (docs/mfa-state-machine.md says when each fires); which state
 * accepts which event is the transition table of `MfaStateMachine.transitions()`.
 */
export const MFA_EVENTS = [
  "MFA_NOT_REQUIRED",
  "MFA_REQUIRED_SELECT_FACTOR",
  "AUTHENTICATION_BLOCKED",
  "FACTOR_SELECTED",
  "INITIATE_CHALLENGE",
  "OPEN_FACTOR_CHALLENGE",
  "FACTOR_VERIFIED_SUCCESS",
  "FACTOR_VERIFICATION_FAILED",
  "USER_ABORTED_MFA",
  "SESSION_TIMEOUT",
  "CHALLENGE_TIMEOUT",
  "SESSION_INVALIDATED",
  "SYSTEM_ERROR",
] as const;

/** An event of an MFA flow (see `MFA_EVENTS`). */
export type MfaEvent = (typeof MFA_EVENTS)[number];
