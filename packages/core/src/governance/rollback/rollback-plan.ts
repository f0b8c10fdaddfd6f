import type {
  NewReleaseHistoryEntry,
  ReleaseRow,
  RollbackExecutionStatus,
} from "../registry/release-registry.js";
import { sameFamilyActive, withReleases } from "../registry/release-rows.js";
import type { ReleaseState } from "../registry/release-state.js";
import type { GovernanceActor } from "../release-governance.js";
import { movedEntry, movedRow } from "../transitions/transition-plan.js";

/** What an applied rollback (or emergency stop) needs. */
export interface RollbackPlanInput {
  readonly releases: readonly ReleaseRow[];
  readonly source: ReleaseRow;
  readonly target: ReleaseRow;
  readonly executionKey: string;
  readonly status: RollbackExecutionStatus;
  readonly actor: GovernanceActor;
  readonly reason: string;
  readonly at: number;
  /** The current policy set's hash, recorded on the target (it executes from now on). */
  readonly policySetHash?: string | undefined;
}

/** The rows a rollback writes, its history entries, and the rows as they were (for an emergency stop's REVERT). */
export interface RollbackPlan {
  readonly releases: ReleaseRow[];
  readonly entries: NewReleaseHistoryEntry[];
  readonly restore: { readonly promptVersion: string; readonly status: ReleaseState }[];
}

/**
 * A rollback in one write: the source becomes DEPRECATED, the target ACTIVE, and the other ACTIVE
 * releases of the target's prompt key and template DEPRECATED (rule 1); every changed row carries
 * the execution in its rollback state and approval.
 */
export function planRollback(i: RollbackPlanInput): RollbackPlan {
  const { actor, at, reason, executionKey } = i;
  const change = (row: ReleaseRow, status: ReleaseState, role: "SOURCE" | "TARGET" | undefined) => {
    const moved = movedRow(row, status, {
      actor,
      rationale: reason,
      at,
      policySetHash: i.policySetHash,
    });
    return role === undefined
      ? moved
      : { ...moved, rollbackState: { executionKey, role, status: i.status, at } };
  };
  const source = change(i.source, "DEPRECATED", "SOURCE");
  const target = change(i.target, "ACTIVE", "TARGET");
  const casualties = sameFamilyActive(withReleases(i.releases, [source]), i.target).map((r) =>
    change(r, "DEPRECATED", undefined),
  );
  const befores = [i.source, i.target, ...sameFamilyActive(withReleases(i.releases, [source]), i.target)];
  const afters = [source, target, ...casualties];
  return {
    releases: withReleases(i.releases, afters),
    entries: afters.map((after, k) =>
      movedEntry(befores[k]!, after, "ROLLBACK", { actor, rationale: reason, at, executionKey }),
    ),
    restore: befores.map((r) => ({ promptVersion: r.promptVersion, status: r.status })),
  };
}
