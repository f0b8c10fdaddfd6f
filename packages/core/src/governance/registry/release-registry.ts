import type { InjectionToken } from "tsyringe";
import type { ReleaseState } from "./release-state.js";

/** The scope every build registers its bundles in, and the one a blank scope means. */
export const PLATFORM_GLOBAL_SCOPE = "PLATFORM_GLOBAL";

/** Who applied the release's last state change, and why (rule 3: recorded with every applied change). */
export interface ReleaseApproval {
  /** The administrator's name, or `system` for start-up registration and the deadline job. */
  readonly by: string;
  /** Epoch milliseconds, from the Clock port. */
  readonly at: number;
  readonly rationale: string;
  /**
   * The history entry of the change (`ReleaseHistoryEntry.id`). The store assigns that id when the
   * entry is appended, which follows the change's compare-and-set, so the service links it in a
   * second, best-effort write: absent for that moment, or when the history store failed.
   */
  readonly historyId?: string | undefined;
}

/** A release's part in the last rollback that touched it. */
export interface ReleaseRollbackState {
  readonly executionKey: string;
  /** SOURCE: it was rolled back from; TARGET: it was rolled back to. */
  readonly role: "SOURCE" | "TARGET";
  readonly status: RollbackExecutionStatus;
  readonly at: number;
}

/**
 * One registry release row: a bundle version in a scope with its state. The code-owned content
 * (template key, contract version, artifact hash, rollback targets) is refreshed by start-up
 * registration; the operational fields (status, canary fields, approval, rollback state) change
 * only through the transition and rollback services.
 */
export interface ReleaseRow {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly templateKey: string;
  readonly promptVersion: string;
  readonly status: ReleaseState;
  /** The manifest's contract version. */
  readonly contractVersion: string;
  /** The manifest's bundle hash: every piece of evidence must be bound to it. */
  readonly artifactHash: string;
  /** The manifest's declared rollback targets (versions). */
  readonly rollbackTargets: readonly string[];
  /** 0 to 100; absent: the whole scope. */
  readonly canaryPercent?: number | undefined;
  readonly canaryTenants?: readonly string[] | undefined;
  readonly canaryResourceFamilies?: readonly string[] | undefined;
  readonly approval?: ReleaseApproval | undefined;
  readonly rollbackState?: ReleaseRollbackState | undefined;
  /**
   * SHA-256 of the database policies the release last executed with (recorded when it became
   * ACTIVE or CANARY, start-up registration included); a rollback to it checks POLICY_SET_MISSING
   * against this or its evaluation's. Absent on a host without policy sets.
   */
  readonly policySetHash?: string | undefined;
  /** When the row was created and last changed (epoch milliseconds). */
  readonly registeredAt: number;
  readonly updatedAt: number;
}

/** Status of a rollback execution (the spec's three, plus the emergency stop's later states). */
export type RollbackExecutionStatus =
  | "EXECUTED"
  | "REFUSED"
  | "AWAITING_APPROVAL"
  /** An emergency stop a second administrator approved. */
  | "RATIFIED"
  /** An emergency stop past its approval deadline, unapproved: still in force, alerting. */
  | "UNRATIFIED"
  /** An emergency stop a second administrator reverted (the source executes again). */
  | "REVERTED";

/** One condition a rollback checked, with its outcome (NOT_APPLICABLE: a host without policy sets). */
export interface RollbackCondition {
  readonly code: string;
  readonly outcome: "PASSED" | "FAILED" | "NOT_APPLICABLE";
  readonly detail?: string | undefined;
}

/** One rollback or emergency stop, as recorded. */
export interface RollbackExecution {
  /** `RBX-<suffix>`. */
  readonly executionKey: string;
  readonly registryScope: string;
  readonly promptKey: string;
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly reason: string;
  readonly emergency: boolean;
  readonly status: RollbackExecutionStatus;
  readonly conditions: readonly RollbackCondition[];
  /** The operator who ran it. */
  readonly operator: string;
  readonly at: number;
  /** An emergency stop's approval deadline (epoch milliseconds). */
  readonly approvalDeadline?: number | undefined;
  /**
   * An emergency stop's rows as they were before it (source, target and the releases rule 1
   * deprecated): what a REVERT puts back, each only while it is still in the state the stop set.
   */
  readonly restore?: readonly { readonly promptVersion: string; readonly status: ReleaseState }[] | undefined;
  /** Who ratified or reverted it, and when. */
  readonly approvedBy?: string | undefined;
  readonly approvedAt?: number | undefined;
}

/**
 * A scope's head: every release of the scope and its emergency stops still open (AWAITING_APPROVAL
 * or UNRATIFIED), with a revision. One document per scope, replaced only by compare-and-set, so a
 * reader sees the old head or the new one, never a mix, and "one ACTIVE release per scope, prompt
 * key and template" is held by the one atomic write (no multi-document transaction).
 */
export interface ReleaseScopeHead {
  readonly registryScope: string;
  /** 0 for a scope never written; each write adds one. */
  readonly revision: number;
  readonly releases: readonly ReleaseRow[];
  readonly openExecutions: readonly RollbackExecution[];
}

/** What happened, in the registry's history. */
export type ReleaseHistoryKind =
  | "REGISTERED"
  | "REFRESHED"
  | "TRANSITION_APPLIED"
  | "TRANSITION_BLOCKED"
  | "ROLLBACK"
  | "APPROVAL"
  | "DEADLINE";

/** One entry of the registry's append-only history. */
export interface ReleaseHistoryEntry {
  /** Store-assigned id. */
  readonly id: string;
  readonly kind: ReleaseHistoryKind;
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
  /** The state before and after (equal for a blocked transition). */
  readonly fromStatus?: ReleaseState | undefined;
  readonly toStatus?: ReleaseState | undefined;
  /** The state a transition asked for (a blocked one keeps `fromStatus` = `toStatus`). */
  readonly requestedStatus?: ReleaseState | undefined;
  /** The blockers of a blocked transition, or the failed conditions of a refused rollback. */
  readonly blockers: readonly string[];
  readonly actor: string;
  readonly rationale: string;
  readonly executionKey?: string | undefined;
  /** An applied move to CANARY (a re-share included): the share and targets the release took. */
  readonly canary?:
    | {
        readonly canaryPercent?: number | undefined;
        readonly canaryTenants?: readonly string[] | undefined;
        readonly canaryResourceFamilies?: readonly string[] | undefined;
      }
    | undefined;
  readonly at: number;
}

/** A history entry before the store gives it an id. */
export type NewReleaseHistoryEntry = Omit<ReleaseHistoryEntry, "id">;

/** Filter of `ReleaseRegistry.history`. */
export interface ReleaseHistoryQuery {
  readonly registryScope?: string | undefined;
  readonly promptVersion?: string | undefined;
  /** 1 to 1,000; default 100. */
  readonly limit?: number | undefined;
}

/** The most history entries one call answers. */
export const MAX_RELEASE_HISTORY_LIMIT = 1_000;

/**
 * The release registry's store. Heads are replaced whole by compare-and-set on their revision; the
 * history is append-only. The store checks every head it is given: at most one ACTIVE release per
 * prompt key and template, one row per version, valid states and canary fields (else
 * VALIDATION_FAILED, nothing written).
 */
export interface ReleaseRegistry {
  /** The scope's head; revision 0 with no releases for a scope never written. */
  head(registryScope: string): Promise<ReleaseScopeHead>;
  /** Every written head, ordered by scope. */
  heads(): Promise<ReleaseScopeHead[]>;
  /**
   * Replaces the scope's head when its revision is still `expectedRevision` (0: the scope must not
   * exist yet), in one atomic step; answers the new head (revision + 1), or undefined when another
   * writer won (nothing written). Of two concurrent calls with the same expected revision, exactly
   * one succeeds.
   */
  replaceHead(
    registryScope: string,
    expectedRevision: number,
    next: Pick<ReleaseScopeHead, "releases" | "openExecutions">,
  ): Promise<ReleaseScopeHead | undefined>;
  /** Appends one history entry; returns it with its id. */
  appendHistory(entry: NewReleaseHistoryEntry): Promise<ReleaseHistoryEntry>;
  /** History entries, newest first (by `at`; of one `at`, the later appended first), at most `limit`. */
  history(query?: ReleaseHistoryQuery): Promise<ReleaseHistoryEntry[]>;
  /** A rollback execution by key, open or closed; recorded with `recordExecution`. */
  execution(executionKey: string): Promise<RollbackExecution | undefined>;
  /** Records (inserts or replaces by key) an execution's latest state, for lookups after it closed. */
  recordExecution(execution: RollbackExecution): Promise<void>;
}

/** DI token of the ReleaseRegistry port. */
export const ReleaseRegistry: InjectionToken<ReleaseRegistry> = Symbol.for("platform.ReleaseRegistry");
