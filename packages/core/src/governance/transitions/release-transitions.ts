import { PlatformError } from "../../kernel/platform-error.js";
import { governanceAuditEvent, GOVERNANCE_AUDIT } from "../governance-audit.js";
import type { GovernanceServiceOptions } from "../governance-service-options.js";
import { type HeadWritePlan, writeScopeHead } from "../registry/head-writer.js";
import type { NewReleaseHistoryEntry, ReleaseRow } from "../registry/release-registry.js";
import { checkRequestText, requireRelease, resolveScope } from "../registry/release-rows.js";
import { type ReleaseState, releaseStateOf } from "../registry/release-state.js";
import type {
  GateBlocker,
  GovernanceActor,
  TransitionReceipt,
  TransitionRequest,
} from "../release-governance.js";
import { type CanaryShare, canaryShareOf, requestedCanaryShare } from "./canary-share.js";
import { orderedBlockers, registryBlockers } from "./transition-blockers.js";
import { planTransition, type TransitionPlan } from "./transition-plan.js";

/** The canonical target of a request, or VALIDATION_FAILED (400) for a name that is no state. */
function targetOf(name: unknown): ReleaseState {
  const state = typeof name === "string" ? releaseStateOf(name.trim()) : undefined;
  if (state === undefined)
    throw new PlatformError("VALIDATION_FAILED", "targetReleaseStatus is not a release state", {
      details: { fields: ["targetReleaseStatus"] },
    });
  return state;
}

/** What one try decided. */
interface Decided {
  readonly row: ReleaseRow;
  readonly blockers: GateBlocker[];
  readonly plan?: TransitionPlan | undefined;
  readonly at: number;
}

/**
 * The transition service: a release moves through the gate (the registry's own checks plus the
 * EvidenceGate's) by one compare-and-set of its scope's head; a blocked move changes nothing and is
 * recorded with its blockers; an applied one is recorded, audited and announced to the caches. A
 * dry run checks the same and records nothing.
 */
export class ReleaseTransitions {
  constructor(private readonly o: GovernanceServiceOptions) {}

  /** See ReleaseGovernance.transition. */
  async transition(
    request: TransitionRequest,
    actor: GovernanceActor,
    options: { dryRun?: boolean } = {},
  ): Promise<TransitionReceipt> {
    checkRequestText(
      { promptKey: request.promptKey, promptVersion: request.promptVersion },
      { rationale: request.rationale ?? "" },
    );
    const target = targetOf(request.targetReleaseStatus);
    const canary = requestedCanaryShare(request, target);
    const scope = resolveScope(request.registryScope);
    const dryRun = options.dryRun === true;
    const executes = target === "ACTIVE" || target === "CANARY";
    const policySetHash = executes && !dryRun ? await this.o.policySets?.currentHash() : undefined;
    const rationale = request.rationale ?? "";
    const { result, written } = await writeScopeHead(
      this.o.registry,
      scope,
      async (head): Promise<HeadWritePlan<Decided>> => {
        const row = requireRelease(head, request.promptKey, request.promptVersion);
        const own = registryBlockers(head, row, target, canary !== undefined);
        const illegal = own.some((b) => b.code === "ILLEGAL_STATE_TRANSITION");
        const blockers = orderedBlockers(
          illegal ? own : [...own, ...(await this.o.gate.blockers(row, target))],
        );
        const at = this.o.clock.now();
        if (blockers.length > 0) return { result: { row, blockers, at } };
        const plan = planTransition({
          releases: head.releases,
          row,
          target,
          actor,
          rationale,
          at,
          policySetHash,
          canary,
        });
        const result = { row, blockers, plan, at };
        return dryRun
          ? { result }
          : { next: { releases: plan.releases, openExecutions: head.openExecutions }, result };
      },
      this.o.retry,
    );
    const receipt = receiptOf(scope, request, target, result, dryRun, canary);
    if (dryRun) return receipt;
    return written && result.plan
      ? this.recordApplied(receipt, result.plan, actor)
      : this.recordBlocked(receipt, result.row, rationale, actor);
  }

  private async recordApplied(
    receipt: TransitionReceipt,
    plan: TransitionPlan,
    actor: GovernanceActor,
  ): Promise<TransitionReceipt> {
    const [entry] = await this.o.recorder.applied(receipt.registryScope, plan.entries);
    this.o.recorder.audit(
      governanceAuditEvent(GOVERNANCE_AUDIT.transitionApplied, actor, "success", auditData(receipt)),
    );
    await this.o.recorder.changed(receipt.registryScope, "TRANSITION_APPLIED");
    return { ...receipt, historyId: entry?.id };
  }

  private async recordBlocked(
    receipt: TransitionReceipt,
    row: ReleaseRow,
    rationale: string,
    actor: GovernanceActor,
  ): Promise<TransitionReceipt> {
    const entry: NewReleaseHistoryEntry = {
      kind: "TRANSITION_BLOCKED",
      registryScope: row.registryScope,
      promptKey: row.promptKey,
      promptVersion: row.promptVersion,
      fromStatus: row.status,
      toStatus: row.status,
      requestedStatus: receipt.targetStatus,
      blockers: receipt.blockers.map((b) => b.code),
      actor: actor.username,
      rationale,
      at: receipt.at,
    };
    const [stored] = await this.o.recorder.history([entry]);
    this.o.recorder.audit(
      governanceAuditEvent(GOVERNANCE_AUDIT.transitionBlocked, actor, "failure", auditData(receipt)),
    );
    return { ...receipt, historyId: stored?.id };
  }
}

function receiptOf(
  registryScope: string,
  request: TransitionRequest,
  target: ReleaseState,
  decided: Decided,
  dryRun: boolean,
  requested: CanaryShare | undefined,
): TransitionReceipt {
  // The share the release has (or would have) after an applied move; a blocked one what it asked for.
  const moved = decided.plan?.releases.find(
    (r) => r.promptKey === request.promptKey && r.promptVersion === request.promptVersion,
  );
  const canary = target !== "CANARY" ? undefined : canaryShareOf(moved ?? requested ?? {});
  return {
    outcome: decided.blockers.length > 0 ? "BLOCKED" : "APPLIED",
    dryRun,
    registryScope,
    promptKey: request.promptKey,
    promptVersion: request.promptVersion,
    fromStatus: decided.row.status,
    targetStatus: target,
    blockers: decided.blockers,
    deprecated: (decided.plan?.deprecated ?? []).map((r) => r.promptVersion),
    ...(canary === undefined ? {} : { canary }),
    at: decided.at,
  };
}

function auditData(receipt: TransitionReceipt): Record<string, unknown> {
  return {
    registryScope: receipt.registryScope,
    promptKey: receipt.promptKey,
    promptVersion: receipt.promptVersion,
    fromStatus: receipt.fromStatus,
    targetStatus: receipt.targetStatus,
    blockers: receipt.blockers.map((b) => b.code),
    deprecated: receipt.deprecated,
    ...(receipt.canary === undefined ? {} : { canary: receipt.canary }),
  };
}
