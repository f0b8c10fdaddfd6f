import type { ReleaseEvidenceLedger } from "../evidence/release-evidence-ledger.js";
import { governanceAuditEvent, GOVERNANCE_AUDIT } from "../governance-audit.js";
import type { GovernanceServiceOptions } from "../governance-service-options.js";
import { type HeadWritePlan, writeScopeHead } from "../registry/head-writer.js";
import type {
  NewReleaseHistoryEntry,
  ReleaseRow,
  ReleaseScopeHead,
  RollbackExecution,
} from "../registry/release-registry.js";
import { checkRequestText, findRelease, resolveScope } from "../registry/release-rows.js";
import type { GovernanceActor, RollbackRequest } from "../release-governance.js";
import { rollbackConditions } from "./rollback-conditions.js";
import { planRollback, type RollbackPlan } from "./rollback-plan.js";

/** The policy set the target's latest evaluation run for its bundle hash records (`content.policySetHash`). */
async function evaluatedPolicySet(
  ledger: ReleaseEvidenceLedger,
  row: ReleaseRow | undefined,
): Promise<string | undefined> {
  if (row === undefined) return undefined;
  const [latest] = await ledger.list({
    promptKey: row.promptKey,
    promptVersion: row.promptVersion,
    bundleHash: row.artifactHash,
    kind: "EVALUATION_RUN",
    limit: 1,
  });
  const hash = latest?.content.policySetHash;
  return typeof hash === "string" && hash !== "" ? hash : undefined;
}

/** One try's decision. */
interface Decided {
  readonly execution: RollbackExecution;
  readonly plan?: RollbackPlan | undefined;
  readonly sourceStatus?: ReleaseRow["status"] | undefined;
}

/**
 * The rollback service: checks every condition on a fresh read of the scope's head and, when none
 * failed, switches the scope to the target in one compare-and-set (an emergency stop too, kept open
 * in the head until a second administrator answers or its deadline passes). A refusal changes
 * nothing and is recorded with its conditions.
 */
export class ReleaseRollbacks {
  constructor(private readonly o: GovernanceServiceOptions) {}

  /** See ReleaseGovernance.rollback. */
  async rollback(request: RollbackRequest, actor: GovernanceActor): Promise<RollbackExecution> {
    checkRequestText(
      { promptKey: request.promptKey, fromVersion: request.fromVersion, toVersion: request.toVersion },
      { reason: request.reason ?? "" },
    );
    const scope = resolveScope(request.registryScope);
    // An unguessable key: who holds it can ask to approve, so it must not be enumerable.
    const executionKey = `RBX-${this.o.ids.secret(16)}`;
    const policySetHash = await this.o.policySets?.currentHash();
    const { result, written } = await writeScopeHead(
      this.o.registry,
      scope,
      (head) => this.decide(head, request, actor, executionKey, policySetHash),
      this.o.retry,
    );
    await this.o.recorder.execution(result.execution);
    if (!written || result.plan === undefined) return this.recordRefused(result, actor);
    await this.o.recorder.applied(scope, result.plan.entries);
    const type = result.execution.emergency
      ? GOVERNANCE_AUDIT.emergencyStopped
      : GOVERNANCE_AUDIT.rollbackExecuted;
    this.o.recorder.audit(governanceAuditEvent(type, actor, "success", auditData(result.execution)));
    await this.o.recorder.changed(scope, "ROLLBACK");
    return result.execution;
  }

  private async decide(
    head: ReleaseScopeHead,
    request: RollbackRequest,
    actor: GovernanceActor,
    executionKey: string,
    policySetHash: string | undefined,
  ): Promise<HeadWritePlan<Decided>> {
    const source = findRelease(head, request.promptKey, request.fromVersion);
    const target = findRelease(head, request.promptKey, request.toVersion);
    const conditions = rollbackConditions({
      head,
      catalog: this.o.catalog,
      promptKey: request.promptKey,
      fromVersion: request.fromVersion,
      toVersion: request.toVersion,
      hasPolicySets: this.o.policySets !== undefined,
      targetEvaluationPolicySet: this.o.policySets
        ? await evaluatedPolicySet(this.o.ledger, target)
        : undefined,
    });
    const at = this.o.clock.now();
    const emergency = request.emergency === true;
    const base = {
      executionKey,
      registryScope: head.registryScope,
      promptKey: request.promptKey,
      fromVersion: request.fromVersion,
      toVersion: request.toVersion,
      reason: request.reason ?? "",
      emergency,
      conditions,
      operator: actor.username,
      at,
    };
    if (source === undefined || target === undefined || conditions.some((c) => c.outcome === "FAILED"))
      return { result: { execution: { ...base, status: "REFUSED" }, sourceStatus: source?.status } };
    const status = emergency ? "AWAITING_APPROVAL" : "EXECUTED";
    const plan = planRollback({
      releases: head.releases,
      source,
      target,
      executionKey,
      status,
      actor,
      reason: base.reason,
      at,
      policySetHash,
    });
    const execution: RollbackExecution = emergency
      ? { ...base, status, approvalDeadline: at + this.o.approvalDeadlineMs, restore: plan.restore }
      : { ...base, status };
    const openExecutions = emergency ? [...head.openExecutions, execution] : head.openExecutions;
    return { next: { releases: plan.releases, openExecutions }, result: { execution, plan } };
  }

  private async recordRefused(decided: Decided, actor: GovernanceActor): Promise<RollbackExecution> {
    const e = decided.execution;
    const entry: NewReleaseHistoryEntry = {
      kind: "ROLLBACK",
      registryScope: e.registryScope,
      promptKey: e.promptKey,
      promptVersion: e.fromVersion,
      fromStatus: decided.sourceStatus,
      toStatus: decided.sourceStatus,
      blockers: e.conditions.filter((c) => c.outcome === "FAILED").map((c) => c.code),
      actor: actor.username,
      rationale: e.reason,
      executionKey: e.executionKey,
      at: e.at,
    };
    await this.o.recorder.history([entry]);
    this.o.recorder.audit(
      governanceAuditEvent(GOVERNANCE_AUDIT.rollbackRefused, actor, "failure", auditData(e)),
    );
    return e;
  }
}

function auditData(e: RollbackExecution): Record<string, unknown> {
  return {
    registryScope: e.registryScope,
    promptKey: e.promptKey,
    fromVersion: e.fromVersion,
    toVersion: e.toVersion,
    executionKey: e.executionKey,
    status: e.status,
    emergency: e.emergency,
    failed: e.conditions.filter((c) => c.outcome === "FAILED").map((c) => c.code),
  };
}
