import type { AuditEvent } from "../kernel/audit-sink.js";
import type { GovernanceActor } from "./release-governance.js";

/** The audit event types of the release registry (principal: the acting administrator, or `system`). */
export const GOVERNANCE_AUDIT = Object.freeze({
  /** A transition passed the gate and was applied. */
  transitionApplied: "release.transition.applied",
  /** A transition was blocked; `data.blockers` names why. Nothing changed. */
  transitionBlocked: "release.transition.blocked",
  /** A rollback switched the scope to its target. */
  rollbackExecuted: "release.rollback.executed",
  /** A rollback was refused; `data.failed` names the conditions. Nothing changed. */
  rollbackRefused: "release.rollback.refused",
  /** An emergency stop ran and waits for another administrator. */
  emergencyStopped: "release.emergency.stopped",
  /** Another administrator kept an emergency stop. */
  emergencyRatified: "release.emergency.ratified",
  /** Another administrator undid an emergency stop: the source executes again. */
  emergencyReverted: "release.emergency.reverted",
  /** An emergency stop passed its approval deadline unapproved: still in force, marked UNRATIFIED. */
  emergencyUnratified: "release.emergency.unratified",
  /** The operator of an emergency stop tried to approve it (refused, 403). */
  approvalDenied: "release.emergency.approval-denied",
  /** Start-up registration created or refreshed rows (`data.registered`, `data.refreshed`). */
  registered: "release.registered",
});

/** The EventBus event published after every applied registry change (the selector's cache drops the scope). */
export const RELEASES_CHANGED_EVENT = "prompt-releases.changed";

/** The payload of RELEASES_CHANGED_EVENT. */
export interface ReleasesChangedPayload {
  readonly registryScope: string;
  /** What changed the scope: a history kind (TRANSITION_APPLIED, ROLLBACK, APPROVAL, REGISTERED, …). */
  readonly kind: string;
}

/** The EventBus event published once when an emergency stop passes its deadline unapproved. */
export const RELEASE_ALERT_EVENT = "prompt-releases.alert";

/** The payload of RELEASE_ALERT_EVENT. */
export interface ReleaseAlertPayload {
  readonly kind: "EMERGENCY_STOP_UNRATIFIED";
  readonly registryScope: string;
  readonly executionKey: string;
  readonly operator: string;
  readonly approvalDeadline: number;
}

/** The principal every automatic change is recorded under (start-up registration, the deadline job). */
export const SYSTEM_ACTOR: GovernanceActor = Object.freeze({ username: "system" });

/** An audit event of `type` under `actor` (principal, correlation id, remote address). */
export function governanceAuditEvent(
  type: string,
  actor: GovernanceActor,
  outcome: NonNullable<AuditEvent["outcome"]>,
  data: Record<string, unknown>,
): AuditEvent {
  return {
    type,
    principal: actor.username,
    outcome,
    ...(actor.correlationId === undefined ? {} : { correlationId: actor.correlationId }),
    ...(actor.remoteAddress === undefined ? {} : { remoteAddress: actor.remoteAddress }),
    data,
  };
}
