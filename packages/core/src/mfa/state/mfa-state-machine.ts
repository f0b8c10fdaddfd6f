import { type Callback, type ITransition, StateMachine, t } from "typescript-fsm";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { FactorType } from "../factor-type.js";
import { BUILT_IN_FACTORS } from "../factor-family/built-in-factors.js";
import type { FactorDescription } from "../factor-family/factor.js";
import {
  type FactorChallenge,
  type FactorContext,
  type FactorHistoryEntry,
  MFA_HISTORY_LIMIT,
} from "./factor-context.js";
import type { MfaEvent } from "./mfa-event.js";
import { type MfaState, isTerminal } from "./mfa-state.js";
import { type MfaGuardOutcome, fsmEventOf, guardedTransitions, transitions } from "./mfa-transitions.js";

/** Defaults of the machine's limits, the same as the MFA settings' defaults (mfa.properties.ts). */
export const MFA_STATE_MACHINE_DEFAULTS = Object.freeze({
  sessionTimeoutMs: 10 * 60_000,
  challengeTimeoutMs: 5 * 60_000,
  maxRetryAttempts: 5,
  accountLockoutDurationMs: 15 * 60_000,
});

/** Options of the MfaStateMachine; every limit defaults to `MFA_STATE_MACHINE_DEFAULTS`. */
export interface MfaStateMachineOptions {
  /** Stamps history, lastActivityAt, challenges and lockouts, and decides timeouts. */
  clock: Clock;
  /** A flow older than this (from createdAt) times out: SESSION_TIMEOUT → MFA_TIMEOUT. Default 10 min. */
  sessionTimeoutMs?: number;
  /** A challenge older than this (from issuedAt) times out back to FACTOR_SELECTION. Default 5 min. */
  challengeTimeoutMs?: number;
  /** Failed verifications of one factor allowed before MFA_ACCOUNT_LOCKED. Default 5. */
  maxRetryAttempts?: number;
  /** How long MFA_ACCOUNT_LOCKED locks the account (sets `lockedUntil`). Default 15 min. */
  accountLockoutDurationMs?: number;
  /** The factors a flow may select (the family's offered members). Default the built-in OTT and PASSKEY. */
  factors?: readonly FactorDescription[];
}

/** Extra data of one step: the selected factor, the challenge issued, a free-text detail. */
export interface MfaStepInput {
  /** FACTOR_SELECTED: the factor chosen (required). Other events: must match the current factor if given. */
  factor?: FactorType;
  /** FACTOR_SELECTED(PASSKEY) and INITIATE_CHALLENGE: the challenge issued; a default one otherwise. */
  challenge?: FactorContext["challenge"];
  /** Recorded in the history (bounded); on the policy events also becomes `decisionReason`. */
  detail?: string;
}

const DETAIL_MAX_LENGTH = 200;
const SILENT = { error: (): void => {} };

// typescript-fsm's table: unguarded rows by their event, guarded branches by `EVENT[OUTCOME]`.
type FsmTransition = ITransition<MfaState, string, Callback>;
const FSM_TABLE: readonly FsmTransition[] = [
  ...transitions().flatMap((r) => (r.to === "guarded" ? [] : [fsmRow(r.from, r.event, r.to)])),
  ...guardedTransitions().map((b) => fsmRow(b.from, fsmEventOf(b.event, b.when), b.to)),
];

function fsmRow(from: MfaState, event: string, to: MfaState): FsmTransition {
  return t<MfaState, string, Callback>(from, event, to);
}

const ACCEPTED = new Set(transitions().map((r) => `${r.from} ${r.event}`));

type Draft = { -readonly [K in keyof FactorContext]: FactorContext[K] };

/**
 * The MFA flow's state machine: typescript-fsm under a wrapper that owns what the library lacks.
 * Guards run here and pick the branch; a new typescript-fsm machine is built from `ctx.state` for
 * every step, so nothing lives in memory between requests; the result is a new context with the
 * same version, which the caller saves through FactorContextRepository (compare-and-set).
 */
export class MfaStateMachine {
  private readonly clock: Clock;
  private readonly sessionTimeoutMs: number;
  private readonly challengeTimeoutMs: number;
  private readonly maxRetryAttempts: number;
  private readonly accountLockoutDurationMs: number;
  private readonly factors: readonly FactorDescription[];

  constructor(options: MfaStateMachineOptions) {
    const d = MFA_STATE_MACHINE_DEFAULTS;
    this.clock = options.clock;
    this.factors = options.factors ?? BUILT_IN_FACTORS;
    this.sessionTimeoutMs = positive("sessionTimeoutMs", options.sessionTimeoutMs ?? d.sessionTimeoutMs);
    this.challengeTimeoutMs = positive(
      "challengeTimeoutMs",
      options.challengeTimeoutMs ?? d.challengeTimeoutMs,
    );
    this.maxRetryAttempts = positive(
      "maxRetryAttempts",
      options.maxRetryAttempts ?? d.maxRetryAttempts,
      true,
    );
    this.accountLockoutDurationMs = positive(
      "accountLockoutDurationMs",
      options.accountLockoutDurationMs ?? d.accountLockoutDurationMs,
    );
  }

  /**
   * The context after `event`. Throws ILLEGAL_STATE_TRANSITION (409) when `ctx.state` does not accept
   * `event`, VALIDATION_FAILED (400) when a guard refuses the input. Does not check timeouts: call
   * `checkTimeouts` first and fire the event it returns.
   */
  async fire(ctx: FactorContext, event: MfaEvent, input: MfaStepInput = {}): Promise<FactorContext> {
    if (!ACCEPTED.has(`${ctx.state} ${event}`)) throw illegal(ctx.state, event);
    const now = this.clock.now();
    const next: Draft = { ...ctx };
    const outcome = this.applyEvent(ctx, next, event, input, now);

    const machine = new StateMachine<MfaState, string>(ctx.state, [...FSM_TABLE], SILENT);
    const fsmEvent = fsmEventOf(event, outcome);
    if (!machine.can(fsmEvent)) throw illegal(ctx.state, event);
    try {
      await machine.dispatch(fsmEvent);
    } catch (cause) {
      throw illegal(ctx.state, event, cause);
    }
    const to = machine.getState();

    next.state = to;
    next.lastActivityAt = now;
    if (to === "FACTOR_SELECTION") {
      delete next.currentFactor;
      delete next.challenge;
      next.failedAttempts = 0;
    } else if (isTerminal(to)) {
      delete next.challenge;
    }
    next.history = [...ctx.history, historyEntry(ctx, event, input, outcome, now)].slice(-MFA_HISTORY_LIMIT);
    return next;
  }

  /**
   * The timeout event due for `ctx` now, if any: SESSION_TIMEOUT once the flow is sessionTimeoutMs
   * old, else CHALLENGE_TIMEOUT once the open challenge reaches the earlier of its expiresAt and
   * issuedAt + challengeTimeoutMs. Undefined for a terminal context. Does not change `ctx`.
   */
  checkTimeouts(ctx: FactorContext): MfaEvent | undefined {
    if (isTerminal(ctx.state)) return undefined;
    const now = this.clock.now();
    if (now - ctx.createdAt >= this.sessionTimeoutMs) return "SESSION_TIMEOUT";
    const c = ctx.challenge;
    const open = ["OTT_CHALLENGE", "PASSKEY_CHALLENGE", "FACTOR_CHALLENGE"].includes(ctx.state);
    if (open && c) {
      if (now >= Math.min(c.expiresAt, c.issuedAt + this.challengeTimeoutMs)) return "CHALLENGE_TIMEOUT";
    }
    return undefined;
  }

  // Runs the guards and the event's own changes on `next`; returns the guard outcome, if guarded.
  private applyEvent(
    ctx: FactorContext,
    next: Draft,
    event: MfaEvent,
    input: MfaStepInput,
    now: number,
  ): MfaGuardOutcome | undefined {
    switch (event) {
      case "MFA_NOT_REQUIRED":
      case "MFA_REQUIRED_SELECT_FACTOR":
      case "AUTHENTICATION_BLOCKED":
        if (ctx.state === "PRIMARY_AUTHENTICATION_COMPLETED" && input.detail !== undefined) {
          next.decisionReason = bounded(input.detail);
        }
        return undefined;
      case "FACTOR_SELECTED": {
        const factor = selectableFactor(ctx, input.factor, this.factors);
        next.currentFactor = factor;
        next.failedAttempts = ctx.attemptsByFactor[factor] ?? 0;
        if (this.factors.find((f) => f.type === factor)?.challengeState === "PASSKEY_CHALLENGE") {
          next.challenge = this.challengeFor(factor, input.challenge, now);
          return "PASSKEY_SELECTED";
        }
        if (input.challenge !== undefined) {
          invalid("An OTT challenge is issued by INITIATE_CHALLENGE, not by FACTOR_SELECTED", "challenge");
        }
        return "OTT_SELECTED";
      }
      case "OPEN_FACTOR_CHALLENGE": {
        // A generic factor's challenge: nothing is sent, the answer is checked by the factor itself.
        next.challenge = this.challengeFor(currentFactor(ctx, event, input.factor), input.challenge, now);
        return undefined;
      }
      case "INITIATE_CHALLENGE": {
        const factor = currentFactor(ctx, event, input.factor);
        next.challenge = this.challengeFor(factor, input.challenge, now);
        next.codesSent = (ctx.codesSent ?? 0) + 1;
        return undefined;
      }
      case "FACTOR_VERIFIED_SUCCESS": {
        const factor = currentFactor(ctx, event, input.factor);
        const completed = ctx.completedFactors.some((c) => c.type === factor)
          ? ctx.completedFactors
          : [...ctx.completedFactors, { type: factor, at: now }];
        next.completedFactors = completed;
        // AllFactorsCompleted: distinct completed types >= required.
        const distinct = new Set(completed.map((c) => c.type)).size;
        return distinct >= ctx.requiredFactors ? "ALL_FACTORS_COMPLETED" : "MORE_FACTORS_REQUIRED";
      }
      case "FACTOR_VERIFICATION_FAILED": {
        const factor = currentFactor(ctx, event, input.factor);
        next.failedAttempts = ctx.failedAttempts + 1;
        next.attemptsByFactor = {
          ...ctx.attemptsByFactor,
          [factor]: (ctx.attemptsByFactor[factor] ?? 0) + 1,
        };
        if (next.failedAttempts < this.maxRetryAttempts) return "RETRIES_LEFT";
        next.lockedUntil = now + this.accountLockoutDurationMs;
        return "NO_RETRIES_LEFT";
      }
      case "USER_ABORTED_MFA":
      case "SESSION_TIMEOUT":
      case "CHALLENGE_TIMEOUT":
      case "SESSION_INVALIDATED":
      case "SYSTEM_ERROR":
        return undefined;
    }
  }

  // The challenge given by the caller, checked, or a default one lasting challengeTimeoutMs.
  private challengeFor(factor: FactorType, given: FactorChallenge | undefined, now: number): FactorChallenge {
    if (given === undefined) return { factor, issuedAt: now, expiresAt: now + this.challengeTimeoutMs };
    const ok =
      given.factor === factor &&
      Number.isFinite(given.issuedAt) &&
      Number.isFinite(given.expiresAt) &&
      given.expiresAt >= given.issuedAt &&
      (given.codeHash === undefined || typeof given.codeHash === "string");
    if (!ok) invalid(`The challenge must be a ${factor} challenge with issuedAt <= expiresAt`, "challenge");
    return { ...given };
  }
}

function illegal(state: MfaState, event: MfaEvent, cause?: unknown): PlatformError {
  return new PlatformError("ILLEGAL_STATE_TRANSITION", `Event ${event} is not allowed in state ${state}`, {
    details: { state, event },
    cause,
  });
}

function invalid(message: string, field: string): never {
  throw new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field] } });
}

// FACTOR_SELECTED's guard: a known factor, available to the user, not completed yet.
function selectableFactor(
  ctx: FactorContext,
  factor: FactorType | undefined,
  known: readonly FactorDescription[],
): FactorType {
  if (factor === undefined || !known.some((f) => f.type === factor)) {
    invalid(`factor must be one of ${known.map((f) => f.type).join(", ")}`, "factor");
  }
  if (!ctx.availableFactors.includes(factor)) {
    invalid(`Factor ${factor} is not available for this MFA session`, "factor");
  }
  if (ctx.completedFactors.some((c) => c.type === factor)) {
    invalid(`Factor ${factor} is already completed; each factor type counts once`, "factor");
  }
  return factor;
}

// The factor of the open challenge; `given`, when present, must name it.
function currentFactor(ctx: FactorContext, event: MfaEvent, given: FactorType | undefined): FactorType {
  const factor = ctx.currentFactor;
  if (factor === undefined) throw illegal(ctx.state, event);
  if (given !== undefined && given !== factor) {
    invalid(`Factor ${given} is not the factor being challenged (${factor})`, "factor");
  }
  return factor;
}

function historyEntry(
  ctx: FactorContext,
  event: MfaEvent,
  input: MfaStepInput,
  outcome: MfaGuardOutcome | undefined,
  at: number,
): FactorHistoryEntry {
  const factor = event === "FACTOR_SELECTED" ? input.factor : ctx.currentFactor;
  const entry: { -readonly [K in keyof FactorHistoryEntry]: FactorHistoryEntry[K] } = { event, at };
  if (factor !== undefined) entry.factor = factor;
  if (event === "FACTOR_VERIFIED_SUCCESS") entry.success = true;
  if (event === "FACTOR_VERIFICATION_FAILED") entry.success = false;
  const detail = input.detail ?? (outcome === "NO_RETRIES_LEFT" ? "retry limit reached" : undefined);
  if (detail !== undefined) entry.detail = bounded(detail);
  return entry;
}

function bounded(text: string): string {
  return text.length > DETAIL_MAX_LENGTH ? text.slice(0, DETAIL_MAX_LENGTH) : text;
}

function positive(name: string, value: number, integer = false): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new PlatformError("CONFIGURATION_INVALID", `MfaStateMachine: ${name} must be a positive number`, {
      details: { key: name, value },
    });
  }
  return value;
}
