import { ZERO_TRUST_ANALYSIS_MISSING_EVENT } from "../../authz/zerotrust/zero-trust-events.js";
import { ACCESS_DENIED_EVENT, SIGN_IN_COMPLETED_EVENT } from "../../identity/events/identity-events.js";
import type { MfaErrorEventCode } from "../../mfa/events/mfa-state-machine-events.js";
import type { MfaState } from "../../mfa/state/mfa-state.js";
import type { DecisionEventKind } from "./decision-event.js";

/** The bus signals the decision pipeline listens to. */
export type DecisionSignal =
  | typeof SIGN_IN_COMPLETED_EVENT
  | typeof ACCESS_DENIED_EVENT
  | typeof ZERO_TRUST_ANALYSIS_MISSING_EVENT
  | "mfa.ErrorEvent"
  | "mfa.StateChangeEvent";

/** Matches every value of a signal that no other row of that signal names. */
export const ANY_OTHER = "*";

/**
 * One row of the mapping: a signal, the value that selects the row (an MFA error code for
 * `mfa.ErrorEvent`, the state reached for `mfa.StateChangeEvent`, ANY_OTHER otherwise), the decision
 * event it makes (none: no decision is asked) and why, in words for docs/security-decisions.md.
 */
export interface DecisionEventMappingRow {
  readonly signal: DecisionSignal;
  readonly match: MfaErrorEventCode | MfaState | typeof ANY_OTHER;
  readonly kind: DecisionEventKind | undefined;
  readonly why: string;
}

const row = (
  signal: DecisionSignal,
  match: DecisionEventMappingRow["match"],
  kind: DecisionEventKind | undefined,
  why: string,
): DecisionEventMappingRow => Object.freeze({ signal, match, kind, why });

const REFUSED_SIGN_IN =
  "the MFA policy refused the sign-in (no usable factor) or could not decide: no factor was tried, and the refusal is a decision already made";

/**
 * Every signal the pipeline hears, by what happened. Only the subject's own failed factors are
 * failures, and only failed factors that reached the lockout threshold are a lockout; a refused send
 * (the resend limit), an expired or cancelled flow, a policy's refusal and a system fault are not
 * occasions. docs/security-decisions.md prints this table; a test keeps the two equal.
 */
export const DECISION_EVENT_MAPPING: readonly DecisionEventMappingRow[] = Object.freeze([
  row(
    SIGN_IN_COMPLETED_EVENT,
    ANY_OTHER,
    "SIGN_IN_COMPLETED",
    "a sign-in passed every gate (published once it did)",
  ),
  row(
    ACCESS_DENIED_EVENT,
    ANY_OTHER,
    "REPEATED_DENIALS",
    "`denials.threshold` denials of one signed-in user within `denials.window` make one event; zero trust's own `ZERO_TRUST_*` answers are not counted (the user is already decided)",
  ),
  row(
    ZERO_TRUST_ANALYSIS_MISSING_EVENT,
    ANY_OTHER,
    "REQUEST_SAMPLED",
    "a sampled request whose caller has no live action",
  ),
  row(
    "mfa.ErrorEvent",
    "MFA_FACTOR_VERIFICATION_FAILED",
    "MFA_FAILURE",
    "a wrong answer to any factor (e-mailed code `OTT`, `PASSKEY`, authenticator app `TOTP`, `RECOVERY_CODE`), below the lockout threshold; `detail.factor` names the factor",
  ),
  row(
    "mfa.ErrorEvent",
    "ACCOUNT_LOCKED",
    "MFA_LOCKOUT",
    "wrong answers to any factor (`TOTP` and `RECOVERY_CODE` count as an e-mailed code does) reached the lockout threshold (the flow's or the user's): the account is locked; `detail.factor` names the factor of the last one",
  ),
  row(
    "mfa.ErrorEvent",
    "MFA_SESSION_BINDING_INVALID",
    "MFA_FAILURE",
    "a flow was presented by a client it is not bound to: someone else holds the flow's id",
  ),
  row(
    "mfa.ErrorEvent",
    "TOO_MANY_ATTEMPTS",
    undefined,
    "a refused send (the flow's code budget is spent): nothing was presented, nothing failed",
  ),
  row("mfa.ErrorEvent", "MFA_TIMEOUT", undefined, "an expired flow"),
  row(
    "mfa.ErrorEvent",
    "CHALLENGE_TIMEOUT",
    undefined,
    "an expired challenge (the flow goes back to factor selection)",
  ),
  row(
    "mfa.ErrorEvent",
    "MFA_SIGN_IN_ENDED",
    undefined,
    "the sign-in a step-up would upgrade ended (signed out, revoked)",
  ),
  row("mfa.ErrorEvent", "AUTHENTICATION_BLOCKED", undefined, REFUSED_SIGN_IN),
  row("mfa.ErrorEvent", "INTERNAL_ERROR", undefined, "a system fault, not the user's doing"),
  row(
    "mfa.ErrorEvent",
    ANY_OTHER,
    undefined,
    "a code the platform does not publish: not guessed into a failure",
  ),
  row(
    "mfa.StateChangeEvent",
    "MFA_ACCOUNT_LOCKED",
    undefined,
    "the lockout is the `ACCOUNT_LOCKED` error of the same step (which also covers the user's lock across flows): one lockout, one event",
  ),
  row("mfa.StateChangeEvent", "MFA_FAILED_TERMINAL", undefined, REFUSED_SIGN_IN),
  row("mfa.StateChangeEvent", "MFA_CANCELLED", undefined, "a cancelled flow"),
  row("mfa.StateChangeEvent", "MFA_TIMEOUT", undefined, "an expired flow"),
  row("mfa.StateChangeEvent", "MFA_SESSION_EXPIRED", undefined, "a flow ended by a sign-out"),
  row("mfa.StateChangeEvent", "MFA_SYSTEM_ERROR", undefined, "a system fault, not the user's doing"),
  row(
    "mfa.StateChangeEvent",
    "MFA_SUCCESSFUL",
    undefined,
    "the completed sign-in is `identity.SignInCompletedEvent`, published past the sign-in checkpoint (a step-up is no sign-in)",
  ),
  row("mfa.StateChangeEvent", "MFA_NOT_REQUIRED", undefined, "as `MFA_SUCCESSFUL`"),
  row("mfa.StateChangeEvent", ANY_OTHER, undefined, "a waiting state: the flow goes on"),
]);

const BY_SIGNAL = new Map<string, DecisionEventMappingRow>(
  DECISION_EVENT_MAPPING.map((r) => [`${r.signal} ${r.match}`, r]),
);

/** The decision event `signal` with value `match` makes, by DECISION_EVENT_MAPPING; undefined for none. */
export function decisionEventKindOf(signal: DecisionSignal, match: unknown): DecisionEventKind | undefined {
  const exact = typeof match === "string" ? BY_SIGNAL.get(`${signal} ${match}`) : undefined;
  return (exact ?? BY_SIGNAL.get(`${signal} ${ANY_OTHER}`))?.kind;
}
