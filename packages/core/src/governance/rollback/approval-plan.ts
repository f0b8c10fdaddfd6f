import type {
  NewReleaseHistoryEntry,
  ReleaseRow,
  ReleaseScopeHead,
  RollbackExecution,
  RollbackExecutionStatus,
} from "../registry/release-registry.js";
import { findRelease, sameFamilyActive, withReleases } from "../registry/release-rows.js";
import type { GovernanceActor } from "../release-governance.js";
import { movedEntry, movedRow } from "../transitions/transition-plan.js";

/** The rows whose rollback state names `executionKey`, with that state's status set to `status`. */
export function withExecutionStatus(
  releases: readonly ReleaseRow[],
  executionKey: string,
  status: RollbackExecutionStatus,
): ReleaseRow[] {
  return releases.map((r) =>
    r.rollbackState?.executionKey === executionKey
      ? { ...r, rollbackState: { ...r.rollbackState, status } }
      : r,
  );
}

/** What a second administrator's answer needs. */
export interface ApprovalPlanInput {
  readonly head: ReleaseScopeHead;
  readonly open: RollbackExecution;
  readonly action: "RATIFY" | "REVERT";
  readonly actor: GovernanceActor;
  readonly rationale: string;
  readonly at: number;
}

/** The head an answer writes, the closed execution and its history. */
export interface ApprovalPlan {
  readonly releases: ReleaseRow[];
  readonly openExecutions: RollbackExecution[];
  readonly execution: RollbackExecution;
  readonly entries: NewReleaseHistoryEntry[];
  /** The versions a REVERT put back. */
  readonly restored: string[];
}

/** The state the stop left a restored row in: the target ACTIVE, the source and rule 1's casualties DEPRECATED. */
function stateAfterStop(open: RollbackExecution, version: string): ReleaseRow["status"] {
  return version === open.toVersion ? "ACTIVE" : "DEPRECATED";
}

/**
 * REVERT: every row the stop changed goes back to its state before it, while it is still in the
 * state the stop left it in (a row someone moved since keeps its new state); a row that becomes
 * ACTIVE again deprecates any other ACTIVE release of its family that is not itself put back (rule 1).
 */
function reverted(i: ApprovalPlanInput, change: { actor: GovernanceActor; rationale: string; at: number }) {
  const back: ReleaseRow[] = [];
  for (const item of i.open.restore ?? []) {
    const row = findRelease(i.head, i.open.promptKey, item.promptVersion);
    if (row === undefined || row.status !== stateAfterStop(i.open, item.promptVersion)) continue;
    back.push(movedRow(row, item.status, change));
  }
  const kept = new Set(back.map((r) => r.promptVersion));
  const casualties = back
    .filter((r) => r.status === "ACTIVE")
    .flatMap((r) => sameFamilyActive(i.head.releases, r).filter((o) => !kept.has(o.promptVersion)))
    .map((o) => movedRow(o, "DEPRECATED", change));
  return [...back, ...casualties];
}

/**
 * A RATIFY or REVERT of an open emergency stop, in one write: the execution leaves the head's open
 * list as RATIFIED or REVERTED, the rows that carry it say so, and a REVERT puts the rows back.
 */
export function planApproval(i: ApprovalPlanInput): ApprovalPlan {
  const { actor, at, rationale } = i;
  const status = i.action === "REVERT" ? "REVERTED" : "RATIFIED";
  const execution: RollbackExecution = { ...i.open, status, approvedBy: actor.username, approvedAt: at };
  const changed = i.action === "REVERT" ? reverted(i, { actor, rationale, at }) : [];
  const releases = withExecutionStatus(withReleases(i.head.releases, changed), i.open.executionKey, status);
  const entries = changed.map((after) => ({
    ...movedEntry(findRelease(i.head, after.promptKey, after.promptVersion)!, after, "APPROVAL", {
      actor,
      rationale,
      at,
      executionKey: i.open.executionKey,
    }),
  }));
  if (entries.length === 0) {
    const source = findRelease(i.head, i.open.promptKey, i.open.fromVersion);
    entries.push({
      kind: "APPROVAL",
      registryScope: i.open.registryScope,
      promptKey: i.open.promptKey,
      promptVersion: i.open.fromVersion,
      fromStatus: source?.status,
      toStatus: source?.status,
      blockers: [],
      actor: actor.username,
      rationale: `${status}: ${rationale}`,
      executionKey: i.open.executionKey,
      at,
    });
  }
  return {
    releases,
    openExecutions: i.head.openExecutions.filter((e) => e.executionKey !== i.open.executionKey),
    execution,
    entries,
    restored: changed
      .filter((r) => (i.open.restore ?? []).some((x) => x.promptVersion === r.promptVersion))
      .map((r) => r.promptVersion),
  };
}
