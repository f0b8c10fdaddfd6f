import type { Authentication } from "../../identity/authentication/authentication.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { FACTOR_TYPE_PATTERN, type FactorType } from "../factor-type.js";
import type { MfaEvent } from "./mfa-event.js";
import type { MfaState } from "./mfa-state.js";

/** The most distinct factors a flow can require (a bound, not a count of the registered ones). */
export const MAX_REQUIRED_FACTORS = 16;

/** How many history entries a FactorContext keeps (the newest ones). */
export const MFA_HISTORY_LIMIT = 50;

/** One step of a flow's history, for audit and the status endpoint. */
export interface FactorHistoryEntry {
  /** The factor the event concerned, if any. */
  readonly factor?: FactorType;
  readonly event: MfaEvent;
  /** Set on verification events: true for FACTOR_VERIFIED_SUCCESS, false for a failure. */
  readonly success?: boolean;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Free text from the caller (bounded), e.g. the policy's reason. */
  readonly detail?: string;
}

/** The challenge a flow is waiting on: when it was issued, when it expires, the OTT code's hash. */
export interface FactorChallenge {
  readonly factor: FactorType;
  /** Hash of the OTT code sent; the machine stores it and never reads it. */
  readonly codeHash?: string;
  /** Epoch milliseconds. */
  readonly issuedAt: number;
  /** Epoch milliseconds; the challenge times out at the earlier of this and issuedAt + challengeTimeoutMs. */
  readonly expiresAt: number;
}

/** A factor the user completed in this flow (each type at most once). */
export interface CompletedFactor {
  readonly type: FactorType;
  /** Epoch milliseconds. */
  readonly at: number;
}

/**
 * Everything one MFA flow knows, persisted between requests. Treat it as immutable: the state
 * machine returns a new object for each step, and the FactorContextRepository bumps `version` on
 * each save (compare-and-set).
 */
export interface FactorContext {
  /** The flow's id, handed to the client (form field, JSON field or `X-MFA-Session-Id`). */
  readonly mfaSessionId: string;
  /** 0 before the first `create`; the repository sets 1 and bumps it on each save. */
  readonly version: number;
  readonly state: MfaState;
  /** Type name of the MFA flow (`mfa`, `mfa_2`, `mfa_<name>`). */
  readonly flowTypeName: string;
  readonly userId: string;
  readonly username: string;
  /**
   * Opaque value the HTTP layer derives from the caller's session or primary authentication; a
   * request whose binding differs must be refused. The machine never reads it.
   */
  readonly callerBinding: string;
  /** The primary authentication that started the flow. */
  readonly primary: Authentication;
  /** How many distinct factors must complete (the AllFactorsCompleted guard). */
  readonly requiredFactors: number;
  /** The factors this user may use in this flow. */
  readonly availableFactors: readonly FactorType[];
  /** The factor being challenged, between FACTOR_SELECTED and the end of its challenge. */
  readonly currentFactor?: FactorType;
  /** Completed factors, distinct types only, in completion order. */
  readonly completedFactors: readonly CompletedFactor[];
  /** Failed verifications of the current factor in this flow (carried over if it is selected again). */
  readonly failedAttempts: number;
  /** Failed verifications per factor type in this flow. */
  readonly attemptsByFactor: Readonly<Partial<Record<FactorType, number>>>;
  /**
   * OTT codes issued in this flow (the first and every resend, whichever endpoint asked): one more on
   * each INITIATE_CHALLENGE, saved in the same compare-and-set step, so the per-flow limit holds under
   * concurrent requests. Never lowered.
   */
  readonly codesSent: number;
  /** The last `MFA_HISTORY_LIMIT` steps, oldest first. */
  readonly history: readonly FactorHistoryEntry[];
  /** The open challenge, in OTT_CHALLENGE and PASSKEY_CHALLENGE. */
  readonly challenge?: FactorChallenge;
  /** Epoch milliseconds; the session timeout counts from here. */
  readonly createdAt: number;
  /** Epoch milliseconds of the last step. */
  readonly lastActivityAt: number;
  /** Set on MFA_ACCOUNT_LOCKED: the account stays locked until this instant (epoch ms). */
  readonly lockedUntil?: number;
  /** The policy's reason for its decision (detail of the first event), if given. */
  readonly decisionReason?: string;
  /** `step-up` for a signed-in user proving a recent factor; absent for a sign-in. */
  readonly purpose?: "sign-in" | "step-up";
}

/** What `newFactorContext` needs: who signed in, in which flow, bound to which caller. */
export interface NewFactorContextInput {
  readonly mfaSessionId: string;
  readonly flowTypeName: string;
  readonly callerBinding: string;
  readonly primary: Authentication;
  readonly requiredFactors: number;
  readonly availableFactors: readonly FactorType[];
  /** Epoch milliseconds (from the Clock): createdAt and lastActivityAt. */
  readonly now: number;
}

/**
 * A fresh, not yet persisted context (version 0) in PRIMARY_AUTHENTICATION_COMPLETED. User id and
 * name come from `primary`; `availableFactors` is de-duplicated. Throws VALIDATION_FAILED on an
 * empty id, flow name or binding, a requiredFactors outside 1..MAX_REQUIRED_FACTORS, or a factor
 * type that is not upper snake case (which factors exist is the family's business, not the store's).
 */
export function newFactorContext(input: NewFactorContextInput): FactorContext {
  const invalid: string[] = [];
  if (input.mfaSessionId.length === 0) invalid.push("mfaSessionId");
  if (input.flowTypeName.length === 0) invalid.push("flowTypeName");
  if (input.callerBinding.length === 0) invalid.push("callerBinding");
  const n = input.requiredFactors;
  if (!Number.isInteger(n) || n < 1 || n > MAX_REQUIRED_FACTORS) invalid.push("requiredFactors");
  if (!input.availableFactors.every((f) => FACTOR_TYPE_PATTERN.test(f))) invalid.push("availableFactors");
  if (!Number.isFinite(input.now)) invalid.push("now");
  if (invalid.length > 0) {
    throw new PlatformError("VALIDATION_FAILED", `Invalid MFA context: ${invalid.join(", ")}`, {
      details: { fields: invalid },
    });
  }
  return {
    mfaSessionId: input.mfaSessionId,
    version: 0,
    state: "PRIMARY_AUTHENTICATION_COMPLETED",
    flowTypeName: input.flowTypeName,
    userId: input.primary.userId,
    username: input.primary.username,
    callerBinding: input.callerBinding,
    primary: input.primary,
    requiredFactors: n,
    availableFactors: [...new Set(input.availableFactors)],
    completedFactors: [],
    failedAttempts: 0,
    attemptsByFactor: {},
    codesSent: 0,
    history: [],
    createdAt: input.now,
    lastActivityAt: input.now,
  };
}

/** The factors the user may still select: available and not yet completed, in available order. */
export function selectableFactors(ctx: FactorContext): FactorType[] {
  const done = new Set(ctx.completedFactors.map((c) => c.type));
  return ctx.availableFactors.filter((f) => !done.has(f));
}
