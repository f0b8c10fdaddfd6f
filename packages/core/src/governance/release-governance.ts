import type { InjectionToken } from "tsyringe";
import type { EvidenceKind, EvidenceRecord } from "./evidence/release-evidence-ledger.js";
import type {
  ReleaseHistoryEntry,
  ReleaseHistoryQuery,
  ReleaseRow,
  ReleaseScopeHead,
  RollbackExecution,
} from "./registry/release-registry.js";
import type { ReleaseState } from "./registry/release-state.js";

/**
 * The gate's blocker codes (prompt-governance.md, "Errors"), and the two state checks of the
 * transition table and rule 2.
 */
export const GATE_BLOCKER_CODES = [
  "ILLEGAL_STATE_TRANSITION",
  "NO_OTHER_ACTIVE_RELEASE",
  "CHANGE_LEDGER_MISSING",
  "EVALUATION_NOT_FOR_BUNDLE_HASH",
  "MODEL_COMPATIBILITY_MISSING",
  "BUDGET_PROFILE_MISSING",
  "ROLLBACK_TARGET_MISSING",
  "PROMPT_INJECTION_GATE_FAILED",
  "NON_FUNCTIONAL_GATE_FAILED",
  "EMPIRICAL_EVAL_MISSING",
  "TEVV_GATE_NOT_READY",
  "TOKEN_COUNTING_POLICY_MISSING",
  "CACHE_POLICY_MISSING",
  "COMPACTION_POLICY_MISSING",
] as const;
/** One of GATE_BLOCKER_CODES. */
export type GateBlockerCode = (typeof GATE_BLOCKER_CODES)[number];

/** One unmet condition of a transition, with a sentence saying what is missing. */
export interface GateBlocker {
  readonly code: GateBlockerCode;
  readonly detail: string;
}

/** The rollback conditions, in the order they are checked (prompt-governance.md, "Errors"). */
export const ROLLBACK_CONDITION_CODES = [
  "SOURCE_NOT_EXECUTING",
  "TARGET_NOT_IN_BUILD",
  "TARGET_NOT_DECLARED",
  "VOCABULARY_INCOMPATIBLE",
  "TARGET_NOT_REGISTERED",
  "POLICY_SET_MISSING",
] as const;
/** One of ROLLBACK_CONDITION_CODES. */
export type RollbackConditionCode = (typeof ROLLBACK_CONDITION_CODES)[number];

/** Who acts: the authenticated administrator, never a name taken from a request body. */
export interface GovernanceActor {
  readonly username: string;
  readonly correlationId?: string | undefined;
  readonly remoteAddress?: string | undefined;
}

/** A transition request (the spec's fields; `targetReleaseStatus` canonical or an older name). */
export interface TransitionRequest {
  /** Blank or absent: PLATFORM_GLOBAL. */
  readonly registryScope?: string | undefined;
  readonly promptKey: string;
  readonly promptVersion: string;
  readonly targetReleaseStatus: string;
  readonly rationale: string;
  /**
   * To CANARY only: the whole percent (0 to 100) of the scope's requesters it runs for; absent: the
   * whole scope. A CANARY → CANARY move with a share field is a re-share (see docs/prompt-governance.md).
   */
  readonly canaryPercent?: number | undefined;
  /** To CANARY only: the tenants it is narrowed to (at most 100; an empty list narrows nothing). */
  readonly canaryTenants?: readonly string[] | undefined;
  /** To CANARY only: the resource families (canonical paths or resource IDs) it is narrowed to. */
  readonly canaryResourceFamilies?: readonly string[] | undefined;
}

/** The transition receipt: 200 when APPLIED, 422 (RELEASE_TRANSITION_BLOCKED) when BLOCKED. */
export interface TransitionReceipt {
  readonly outcome: "APPLIED" | "BLOCKED";
  /** True for a dry run: nothing was recorded or changed; `outcome` says what would happen. */
  readonly dryRun: boolean;
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
  /** Canonical names, always. */
  readonly fromStatus: ReleaseState;
  readonly targetStatus: ReleaseState;
  readonly blockers: readonly GateBlocker[];
  /** Versions rule 1 deprecated with this change (applied or would-be). */
  readonly deprecated: readonly string[];
  /** A move to CANARY: the share and targets the release has (or would have) after it. */
  readonly canary?:
    | {
        readonly canaryPercent?: number | undefined;
        readonly canaryTenants?: readonly string[] | undefined;
        readonly canaryResourceFamilies?: readonly string[] | undefined;
      }
    | undefined;
  /** The history entry that records it (absent for a dry run). */
  readonly historyId?: string | undefined;
  readonly at: number;
}

/** A rollback request (the spec's fields). */
export interface RollbackRequest {
  readonly registryScope?: string | undefined;
  readonly promptKey: string;
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly reason: string;
  /** An emergency stop: acts at once, then waits for a second administrator. */
  readonly emergency?: boolean | undefined;
}

/** A second administrator's answer to an emergency stop. */
export interface ApprovalRequest {
  /** RATIFY (default) keeps the stop; REVERT makes the source execute again. */
  readonly action?: "RATIFY" | "REVERT" | undefined;
  readonly rationale?: string | undefined;
}

/**
 * The release registry's service, used by the admin API and the console: every state change goes
 * through it, decided by one compare-and-set on the scope's head (retried a few times on a lost
 * race, then RELEASE_REGISTRY_BUSY), recorded in the history and the audit trail, and followed by
 * a cache invalidation (the ChangeCounters topic RELEASE_CACHE_TOPIC).
 */
export interface ReleaseGovernance {
  /** The heads of every scope, or of one (a blank scope is PLATFORM_GLOBAL). */
  releases(registryScope?: string): Promise<ReleaseScopeHead[]>;
  /** The transition through the gate; a blocked one is recorded with its blockers and changes nothing. */
  transition(
    request: TransitionRequest,
    actor: GovernanceActor,
    options?: { dryRun?: boolean },
  ): Promise<TransitionReceipt>;
  /** A rollback or emergency stop: EXECUTED, AWAITING_APPROVAL, or REFUSED (recorded, nothing changed). */
  rollback(request: RollbackRequest, actor: GovernanceActor): Promise<RollbackExecution>;
  /** Ratifies or reverts an open emergency stop (APPROVAL_BY_OPERATOR_FORBIDDEN for its operator). */
  approve(
    executionKey: string,
    approval: ApprovalRequest,
    actor: GovernanceActor,
  ): Promise<RollbackExecution>;
  /** The registry history, newest first. */
  history(query?: ReleaseHistoryQuery): Promise<ReleaseHistoryEntry[]>;
  /** Marks open emergency stops past their deadline UNRATIFIED (the deadline job); how many it marked. */
  checkDeadlines(): Promise<number>;
}

/** DI token of the ReleaseGovernance service. */
export const ReleaseGovernance: InjectionToken<ReleaseGovernance> = Symbol.for("platform.ReleaseGovernance");

/** The ChangeCounters topic bumped after every applied change (the run-time selector polls it). */
export const RELEASE_CACHE_TOPIC = "prompt-releases";

/**
 * The evidence-based checks of the gate (every blocker but ILLEGAL_STATE_TRANSITION,
 * NO_OTHER_ACTIVE_RELEASE and ROLLBACK_TARGET_MISSING, which the transition service checks from the
 * registry and the manifest), for a move of `release` to `target`: SHADOW, CANARY and ACTIVE per
 * the spec's "Gate blockers by target"; none for other targets.
 */
export interface EvidenceGate {
  blockers(release: ReleaseRow, target: ReleaseState): Promise<GateBlocker[]>;
}

/** DI token of the EvidenceGate. */
export const EvidenceGate: InjectionToken<EvidenceGate> = Symbol.for("platform.EvidenceGate");

/** Evidence as submitted through the admin API or the CLI (the author is the actor, never a field). */
export interface EvidenceSubmission {
  readonly kind: EvidenceKind;
  readonly promptKey: string;
  readonly promptVersion: string;
  readonly bundleHash: string;
  readonly content: unknown;
}

/**
 * Takes evidence in: checks the kind's schema (EVIDENCE_INVALID), that the version is a bundle of
 * this build's catalog and the hash its manifest's, and for an EVALUATION_RUN that the test-set hash
 * is this build's and the summary is what the cases give (EVALUATION_RECORD_INCONSISTENT); then
 * records it in the ledger and the audit trail under the actor's name.
 */
export interface EvidenceIntake {
  submit(submission: EvidenceSubmission, actor: GovernanceActor): Promise<EvidenceRecord>;
  /** The evidence of one version, newest first (for the console and the CLI). */
  list(promptKey: string, promptVersion?: string): Promise<EvidenceRecord[]>;
}

/** DI token of the EvidenceIntake service. */
export const EvidenceIntake: InjectionToken<EvidenceIntake> = Symbol.for("platform.EvidenceIntake");
