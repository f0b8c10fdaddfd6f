import { PlatformError } from "../../kernel/platform-error.js";
import {
  governanceAuditEvent,
  GOVERNANCE_AUDIT,
  type ReleaseAlertPayload,
  SYSTEM_ACTOR,
} from "../governance-audit.js";
import type { GovernanceServiceOptions } from "../governance-service-options.js";
import { writeScopeHead } from "../registry/head-writer.js";
import type {
  NewReleaseHistoryEntry,
  ReleaseScopeHead,
  RollbackExecution,
} from "../registry/release-registry.js";
import type { ApprovalRequest, GovernanceActor } from "../release-governance.js";
import { checkRequestText } from "../registry/release-rows.js";
import { planApproval, type ApprovalPlan, withExecutionStatus } from "./approval-plan.js";

/** What announces an unratified stop beyond the audit trail (the EventBus). */
export type ReleaseAlert = (payload: ReleaseAlertPayload) => Promise<void>;

function notOpen(executionKey: string): PlatformError {
  return new PlatformError(
    "ROLLBACK_EXECUTION_NOT_OPEN",
    `Emergency stop ${executionKey} is not waiting for approval`,
  );
}

/**
 * A second administrator's answer to an emergency stop, and the deadline rule: past its deadline an
 * unapproved stop stays in force and becomes UNRATIFIED (still open), recorded and alerted once;
 * a later RATIFY or REVERT by another administrator closes it.
 */
export class EmergencyApprovals {
  constructor(
    private readonly o: GovernanceServiceOptions,
    private readonly alert: ReleaseAlert,
  ) {}

  /** See ReleaseGovernance.approve. */
  async approve(
    executionKey: string,
    approval: ApprovalRequest,
    actor: GovernanceActor,
  ): Promise<RollbackExecution> {
    checkRequestText({ executionKey }, { rationale: approval.rationale ?? "" });
    const action = approval.action ?? "RATIFY";
    if (action !== "RATIFY" && action !== "REVERT")
      throw new PlatformError("VALIDATION_FAILED", "action must be RATIFY or REVERT", {
        details: { fields: ["action"] },
      });
    const recorded = await this.lookup(executionKey);
    if (recorded === undefined)
      throw new PlatformError("ROLLBACK_EXECUTION_NOT_FOUND", `No rollback execution ${executionKey}`);
    if (!recorded.emergency) throw notOpen(executionKey);
    if (recorded.operator === actor.username) {
      this.o.recorder.audit(
        governanceAuditEvent(GOVERNANCE_AUDIT.approvalDenied, actor, "denied", { executionKey, action }),
      );
      throw new PlatformError(
        "APPROVAL_BY_OPERATOR_FORBIDDEN",
        "The operator of an emergency stop cannot approve it",
      );
    }
    const at = () => this.o.clock.now();
    const { result } = await writeScopeHead(
      this.o.registry,
      recorded.registryScope,
      async (head) => {
        const open = head.openExecutions.find((e) => e.executionKey === executionKey);
        if (open === undefined) throw notOpen(executionKey);
        const plan = planApproval({
          head,
          open,
          action,
          actor,
          rationale: approval.rationale ?? "",
          at: at(),
        });
        return { next: { releases: plan.releases, openExecutions: plan.openExecutions }, result: plan };
      },
      this.o.retry,
    );
    return this.recordApproval(result, actor);
  }

  /** The execution by key; an open stop whose record failed to write is still found in its head. */
  private async lookup(executionKey: string): Promise<RollbackExecution | undefined> {
    const recorded = await this.o.registry.execution(executionKey);
    if (recorded !== undefined) return recorded;
    for (const head of await this.o.registry.heads()) {
      const open = head.openExecutions.find((e) => e.executionKey === executionKey);
      if (open !== undefined) return open;
    }
    return undefined;
  }

  private async recordApproval(plan: ApprovalPlan, actor: GovernanceActor): Promise<RollbackExecution> {
    const e = plan.execution;
    await this.o.recorder.execution(e);
    await this.o.recorder.applied(e.registryScope, plan.entries);
    const type =
      e.status === "REVERTED" ? GOVERNANCE_AUDIT.emergencyReverted : GOVERNANCE_AUDIT.emergencyRatified;
    this.o.recorder.audit(
      governanceAuditEvent(type, actor, "success", {
        registryScope: e.registryScope,
        executionKey: e.executionKey,
        operator: e.operator,
        restored: plan.restored,
      }),
    );
    if (e.status === "REVERTED") await this.o.recorder.changed(e.registryScope, "APPROVAL");
    return e;
  }

  /** See ReleaseGovernance.checkDeadlines: every scope, each scope in one compare-and-set. */
  async checkDeadlines(): Promise<number> {
    let marked = 0;
    for (const head of await this.o.registry.heads()) {
      if (!head.openExecutions.some((e) => this.isOverdue(e))) continue;
      const { result } = await writeScopeHead(
        this.o.registry,
        head.registryScope,
        async (fresh) => this.markOverdue(fresh),
        this.o.retry,
      );
      for (const e of result) await this.recordUnratified(e);
      marked += result.length;
    }
    return marked;
  }

  private isOverdue(e: RollbackExecution): boolean {
    return (
      e.status === "AWAITING_APPROVAL" &&
      e.approvalDeadline !== undefined &&
      e.approvalDeadline <= this.o.clock.now()
    );
  }

  private async markOverdue(head: ReleaseScopeHead) {
    const overdue = head.openExecutions.filter((e) => this.isOverdue(e));
    if (overdue.length === 0) return { result: [] as RollbackExecution[] };
    const marked = overdue.map((e): RollbackExecution => ({ ...e, status: "UNRATIFIED" }));
    let releases = head.releases;
    for (const e of marked) releases = withExecutionStatus(releases, e.executionKey, "UNRATIFIED");
    const openExecutions = head.openExecutions.map(
      (e) => marked.find((m) => m.executionKey === e.executionKey) ?? e,
    );
    return { next: { releases, openExecutions }, result: marked };
  }

  private async recordUnratified(e: RollbackExecution): Promise<void> {
    await this.o.recorder.execution(e);
    const entry: NewReleaseHistoryEntry = {
      kind: "DEADLINE",
      registryScope: e.registryScope,
      promptKey: e.promptKey,
      promptVersion: e.toVersion,
      blockers: [],
      actor: SYSTEM_ACTOR.username,
      rationale: `approval deadline passed unapproved: the stop of ${e.fromVersion} stays in force, UNRATIFIED`,
      executionKey: e.executionKey,
      at: this.o.clock.now(),
    };
    await this.o.recorder.history([entry]);
    this.o.recorder.audit(
      governanceAuditEvent(GOVERNANCE_AUDIT.emergencyUnratified, SYSTEM_ACTOR, "failure", {
        registryScope: e.registryScope,
        executionKey: e.executionKey,
        operator: e.operator,
        approvalDeadline: e.approvalDeadline,
      }),
    );
    await this.alert({
      kind: "EMERGENCY_STOP_UNRATIFIED",
      registryScope: e.registryScope,
      executionKey: e.executionKey,
      operator: e.operator,
      approvalDeadline: e.approvalDeadline ?? e.at,
    });
  }
}
