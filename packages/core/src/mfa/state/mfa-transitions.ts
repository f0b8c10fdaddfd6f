import { MFA_EVENTS, type MfaEvent } from "./mfa-event.js";
import { MFA_STATES, type MfaState, isTerminal } from "./mfa-state.js";

/**
 * The outcomes of the wrapper's guards. A guarded (state, event) pair has one branch per outcome;
 * the wrapper decides the outcome, then typescript-fsm moves along that branch.
 */
export type MfaGuardOutcome =
  // A factor whose challenge starts in a later step: OTT (a code is sent) and every generic factor
  // (OPEN_FACTOR_CHALLENGE); the name predates plugin factors and stays with the table.
  | "OTT_SELECTED"
  | "PASSKEY_SELECTED"
  | "ALL_FACTORS_COMPLETED"
  | "MORE_FACTORS_REQUIRED"
  | "RETRIES_LEFT"
  | "NO_RETRIES_LEFT";

/** One row of the public transition table; `guarded` means a guard picks the target. */
export interface MfaTransition {
  readonly from: MfaState;
  readonly event: MfaEvent;
  readonly to: MfaState | "guarded";
}

/** One branch of a guarded transition: taken when the guard's outcome is `when`. */
export interface MfaGuardedBranch {
  readonly from: MfaState;
  readonly event: MfaEvent;
  readonly when: MfaGuardOutcome;
  readonly to: MfaState;
}

interface Row {
  readonly from: MfaState;
  readonly event: MfaEvent;
  readonly to: MfaState;
  readonly when?: MfaGuardOutcome;
}

// FACTOR_CHALLENGE is the one challenge state of every factor the spec does not name (a plugin's).
const CHALLENGE_STATES = ["OTT_CHALLENGE", "PASSKEY_CHALLENGE", "FACTOR_CHALLENGE"] as const;
const FACTOR_STATES = ["AWAITING_CHALLENGE_INITIATION", ...CHALLENGE_STATES] as const;

function buildRows(): Row[] {
  const rows: Row[] = [
    { from: "PRIMARY_AUTHENTICATION_COMPLETED", event: "MFA_NOT_REQUIRED", to: "MFA_NOT_REQUIRED" },
    { from: "PRIMARY_AUTHENTICATION_COMPLETED", event: "MFA_REQUIRED_SELECT_FACTOR", to: "FACTOR_SELECTION" },
    { from: "PRIMARY_AUTHENTICATION_COMPLETED", event: "AUTHENTICATION_BLOCKED", to: "MFA_FAILED_TERMINAL" },
    {
      from: "FACTOR_SELECTION",
      event: "FACTOR_SELECTED",
      when: "OTT_SELECTED",
      to: "AWAITING_CHALLENGE_INITIATION",
    },
    { from: "FACTOR_SELECTION", event: "FACTOR_SELECTED", when: "PASSKEY_SELECTED", to: "PASSKEY_CHALLENGE" },
    { from: "AWAITING_CHALLENGE_INITIATION", event: "INITIATE_CHALLENGE", to: "OTT_CHALLENGE" },
    { from: "OTT_CHALLENGE", event: "INITIATE_CHALLENGE", to: "OTT_CHALLENGE" },
    { from: "AWAITING_CHALLENGE_INITIATION", event: "OPEN_FACTOR_CHALLENGE", to: "FACTOR_CHALLENGE" },
  ];
  for (const from of CHALLENGE_STATES) {
    rows.push(
      { from, event: "FACTOR_VERIFIED_SUCCESS", when: "ALL_FACTORS_COMPLETED", to: "MFA_SUCCESSFUL" },
      { from, event: "FACTOR_VERIFIED_SUCCESS", when: "MORE_FACTORS_REQUIRED", to: "FACTOR_SELECTION" },
      { from, event: "FACTOR_VERIFICATION_FAILED", when: "RETRIES_LEFT", to: from },
      { from, event: "FACTOR_VERIFICATION_FAILED", when: "NO_RETRIES_LEFT", to: "MFA_ACCOUNT_LOCKED" },
      { from, event: "CHALLENGE_TIMEOUT", to: "FACTOR_SELECTION" },
    );
  }
  for (const from of FACTOR_STATES) {
    rows.push({ from, event: "MFA_REQUIRED_SELECT_FACTOR", to: "FACTOR_SELECTION" });
  }
  for (const from of MFA_STATES.filter((s) => !isTerminal(s))) {
    rows.push(
      { from, event: "USER_ABORTED_MFA", to: "MFA_CANCELLED" },
      { from, event: "SESSION_TIMEOUT", to: "MFA_TIMEOUT" },
      { from, event: "SESSION_INVALIDATED", to: "MFA_SESSION_EXPIRED" },
      { from, event: "SYSTEM_ERROR", to: "MFA_SYSTEM_ERROR" },
    );
  }
  const rank = (r: Row) => MFA_STATES.indexOf(r.from) * 100 + MFA_EVENTS.indexOf(r.event);
  return rows.sort((a, b) => rank(a) - rank(b));
}

// Every branch, guarded or not, ordered by state then event: the one source of both tables below.
const ROWS: readonly Row[] = buildRows();

const TABLE: readonly MfaTransition[] = Object.freeze(
  ROWS.filter((r, i, all) => i === 0 || all[i - 1]?.from !== r.from || all[i - 1]?.event !== r.event).map(
    (r) => Object.freeze({ from: r.from, event: r.event, to: r.when === undefined ? r.to : "guarded" }),
  ),
);

const BRANCHES: readonly MfaGuardedBranch[] = Object.freeze(
  ROWS.flatMap((r) =>
    r.when === undefined ? [] : [Object.freeze({ from: r.from, event: r.event, when: r.when, to: r.to })],
  ),
);

/** The transition table: one row per accepted (state, event) pair, ordered by state then event. */
export function transitions(): readonly MfaTransition[] {
  return TABLE;
}

/** The branches of the `guarded` rows of `transitions()`, one per guard outcome. */
export function guardedTransitions(): readonly MfaGuardedBranch[] {
  return BRANCHES;
}

/** The event name typescript-fsm sees: the public event, suffixed with the guard outcome if any. */
export function fsmEventOf(event: MfaEvent, when?: MfaGuardOutcome): string {
  return when === undefined ? event : `${event}[${when}]`;
}
