import type { NewReleaseHistoryEntry, ReleaseRow } from "../registry/release-registry.js";
import { sameFamilyActive, withReleases } from "../registry/release-rows.js";
import type { ReleaseState } from "../registry/release-state.js";
import type { GovernanceActor } from "../release-governance.js";
import { type CanaryShare, canaryShareOf, withCanaryShare } from "./canary-share.js";

/** What an applied transition needs besides the head. */
export interface TransitionPlanInput {
  readonly releases: readonly ReleaseRow[];
  readonly row: ReleaseRow;
  readonly target: ReleaseState;
  readonly actor: GovernanceActor;
  readonly rationale: string;
  readonly at: number;
  /** The current policy set's hash; recorded when the release becomes ACTIVE or CANARY. */
  readonly policySetHash?: string | undefined;
  /** The checked share of a move to CANARY (see withCanaryShare); undefined: none named. */
  readonly canary?: CanaryShare | undefined;
}

/** The rows an applied transition writes and the history entries that record it. */
export interface TransitionPlan {
  readonly releases: ReleaseRow[];
  /** The rows rule 1 deprecated. */
  readonly deprecated: ReleaseRow[];
  readonly entries: NewReleaseHistoryEntry[];
}

/**
 * `row` moved to `status` by `actor` with a fresh approval (its history id is linked once the entry
 * is stored), recording the policy set when it now executes.
 */
export function movedRow(
  row: ReleaseRow,
  status: ReleaseState,
  change: {
    actor: GovernanceActor;
    rationale: string;
    at: number;
    policySetHash?: string | undefined;
  },
): ReleaseRow {
  const executes = status === "ACTIVE" || status === "CANARY";
  return {
    ...row,
    status,
    approval: {
      by: change.actor.username,
      at: change.at,
      rationale: change.rationale,
    },
    ...(executes && change.policySetHash !== undefined ? { policySetHash: change.policySetHash } : {}),
    updatedAt: change.at,
  };
}

/** The history entry of one row's applied move. */
export function movedEntry(
  before: ReleaseRow,
  after: ReleaseRow,
  kind: NewReleaseHistoryEntry["kind"],
  extra: { actor: GovernanceActor; rationale: string; at: number; executionKey?: string | undefined },
): NewReleaseHistoryEntry {
  const canary =
    after.status === "CANARY" && kind === "TRANSITION_APPLIED" ? canaryShareOf(after) : undefined;
  return {
    kind,
    registryScope: before.registryScope,
    promptKey: before.promptKey,
    promptVersion: before.promptVersion,
    fromStatus: before.status,
    toStatus: after.status,
    requestedStatus: after.status,
    blockers: [],
    actor: extra.actor.username,
    rationale: extra.rationale,
    ...(extra.executionKey === undefined ? {} : { executionKey: extra.executionKey }),
    ...(canary === undefined ? {} : { canary }),
    at: extra.at,
  };
}

/**
 * An applied transition: the release takes its target with its approval (and the policy set hash
 * when it now executes); moving to ACTIVE deprecates the other ACTIVE releases of its prompt key
 * and template (rule 1), each recorded as a change of its own that names the promoted version.
 * A move to CANARY writes its share with the state (withCanaryShare), and its entry records it.
 */
export function planTransition(input: TransitionPlanInput): TransitionPlan {
  const { row, target, actor, at } = input;
  const moved = withCanaryShare(
    row,
    movedRow(row, target, { actor, rationale: input.rationale, at, policySetHash: input.policySetHash }),
    input.canary,
  );
  const entries = [movedEntry(row, moved, "TRANSITION_APPLIED", { actor, rationale: input.rationale, at })];
  const deprecated: ReleaseRow[] = [];
  if (target === "ACTIVE")
    for (const other of sameFamilyActive(input.releases, row)) {
      const rationale = `rule 1: ${row.promptVersion} became ACTIVE`;
      const after = movedRow(other, "DEPRECATED", { actor, rationale, at });
      deprecated.push(after);
      entries.push(movedEntry(other, after, "TRANSITION_APPLIED", { actor, rationale, at }));
    }
  return { releases: withReleases(input.releases, [moved, ...deprecated]), deprecated, entries };
}
