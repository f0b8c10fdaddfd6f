import type { GovernanceServiceOptions } from "./governance-service-options.js";
import type {
  ReleaseHistoryEntry,
  ReleaseHistoryQuery,
  ReleaseScopeHead,
  RollbackExecution,
} from "./registry/release-registry.js";
import { resolveScope } from "./registry/release-rows.js";
import type {
  ApprovalRequest,
  GovernanceActor,
  ReleaseGovernance,
  RollbackRequest,
  TransitionReceipt,
  TransitionRequest,
} from "./release-governance.js";
import { EmergencyApprovals, type ReleaseAlert } from "./rollback/emergency-approvals.js";
import { ReleaseRollbacks } from "./rollback/release-rollbacks.js";
import { ReleaseTransitions } from "./transitions/release-transitions.js";

/**
 * The ReleaseGovernance the governance plugin registers: transitions through the gate, rollbacks and
 * emergency stops with their approvals and deadline, and the registry's reads, over one
 * ReleaseRegistry whose scope heads change only by compare-and-set.
 */
export class DefaultReleaseGovernance implements ReleaseGovernance {
  private readonly transitions: ReleaseTransitions;
  private readonly rollbacks: ReleaseRollbacks;
  private readonly approvals: EmergencyApprovals;

  constructor(
    private readonly o: GovernanceServiceOptions,
    /** Announces an emergency stop that passed its deadline unapproved (once per stop). */
    alert: ReleaseAlert,
  ) {
    this.transitions = new ReleaseTransitions(o);
    this.rollbacks = new ReleaseRollbacks(o);
    this.approvals = new EmergencyApprovals(o, alert);
  }

  async releases(registryScope?: string): Promise<ReleaseScopeHead[]> {
    if (registryScope === undefined) return this.o.registry.heads();
    return [await this.o.registry.head(resolveScope(registryScope))];
  }

  transition(
    request: TransitionRequest,
    actor: GovernanceActor,
    options?: { dryRun?: boolean },
  ): Promise<TransitionReceipt> {
    return this.transitions.transition(request, actor, options);
  }

  rollback(request: RollbackRequest, actor: GovernanceActor): Promise<RollbackExecution> {
    return this.rollbacks.rollback(request, actor);
  }

  approve(
    executionKey: string,
    approval: ApprovalRequest,
    actor: GovernanceActor,
  ): Promise<RollbackExecution> {
    return this.approvals.approve(executionKey, approval, actor);
  }

  history(query?: ReleaseHistoryQuery): Promise<ReleaseHistoryEntry[]> {
    return this.o.registry.history(query);
  }

  checkDeadlines(): Promise<number> {
    return this.approvals.checkDeadlines();
  }
}
