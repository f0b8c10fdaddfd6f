import type { MfaState } from "../state/mfa-state.js";

/** Error kinds of an ErrorEvent. */
export type MfaErrorType = "SECURITY" | "TIMEOUT" | "LIMIT_EXCEEDED" | "SYSTEM";

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
  readonly code: string;
  readonly userId?: string;
  readonly mfaSessionId?: string;
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
