import type { MfaState } from "../state/mfa-state.js";

/** Error kinds of an ErrorEvent. */
export type MfaErrorType = "SECURITY" | "TIMEOUT" | "LIMIT_EXCEEDED" | "SYSTEM";

/**
 * Every code the MFA runtime publishes in an ErrorEvent. The kind (`errorType`) groups them loosely
 * (LIMIT_EXCEEDED is both a lockout and a refused send), so a reader that must tell them apart, such
 * as the decision pipeline's event sources, keys on the code.
 */
export const MFA_ERROR_EVENT_CODES = [
  /** A factor was presented and did not verify; the lockout threshold is not reached. */
  "MFA_FACTOR_VERIFICATION_FAILED",
  /** Failed factors reached the lockout threshold (the flow's or the user's): the account is locked. */
  "ACCOUNT_LOCKED",
  /** A code was not sent: the flow spent its code budget (MAX_CODES_PER_MFA_SESSION). */
  "TOO_MANY_ATTEMPTS",
  /** The flow outlived its session timeout. */
  "MFA_TIMEOUT",
  /** A challenge outlived its timeout; the flow went back to factor selection. */
  "CHALLENGE_TIMEOUT",
  /** A flow was presented by a client it is not bound to (or binding header and cookie disagree). */
  "MFA_SESSION_BINDING_INVALID",
  /** The sign-in a step-up would upgrade has ended (signed out, revoked). */
  "MFA_SIGN_IN_ENDED",
  /** The MFA policy refused the sign-in (no usable factor) or could not decide. */
  "AUTHENTICATION_BLOCKED",
  /** An MFA step failed unexpectedly. */
  "INTERNAL_ERROR",
] as const;

/** One of MFA_ERROR_EVENT_CODES. */
export type MfaErrorEventCode = (typeof MFA_ERROR_EVENT_CODES)[number];

/** An MFA state transition: who, from which state, to which. */
export interface StateChangeEvent {
  readonly type: "StateChangeEvent";
  readonly userId: string;
  readonly mfaSessionId: string;
  readonly flow: string;
  readonly fromState: MfaState;
  readonly toState: MfaState;
  /** The machine event that caused it. */
  readonly event: string;
  readonly at: number;
}

/** Something went wrong in a flow. */
export interface ErrorEvent {
  readonly type: "ErrorEvent";
  readonly errorType: MfaErrorType;
  readonly message: string;
  /** The stable error code answered to the client. */
  readonly code: MfaErrorEventCode;
  readonly userId?: string;
  readonly mfaSessionId?: string;
  /**
   * The factor type a failure or a lockout was on (`OTT`, `PASSKEY`, `TOTP`, `RECOVERY_CODE`); absent
   * on errors no answer caused.
   */
  readonly factor?: string;
  readonly at: number;
}

/** A step slower than `platform.auth.mfa.performanceAlertMs`. */
export interface PerformanceAlertEvent {
  readonly type: "PerformanceAlertEvent";
  /** What was slow, e.g. `step:FACTOR_VERIFIED_SUCCESS`, `policy`. */
  readonly operation: string;
  readonly durationMs: number;
  readonly thresholdMs: number;
  readonly userId?: string;
  readonly mfaSessionId?: string;
  readonly at: number;
}

/** A host's own event, published through the same channel. */
export interface CustomEvent {
  readonly type: "CustomEvent";
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly userId?: string;
  readonly at: number;
}

/** Every MFA state machine event a listener may receive (docs/glossary.md: MfaStateMachineEvents). */
export type MfaStateMachineEvent = StateChangeEvent | ErrorEvent | PerformanceAlertEvent | CustomEvent;
