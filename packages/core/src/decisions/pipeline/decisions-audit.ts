/** The audit event types of the decision pipeline. */
export const DECISIONS_AUDIT = Object.freeze({
  /** A decision was written (zero trust, history, evidence). */
  made: "decision.made",
  /** An event was not decided: queue full, rate or cost cap, unknown user. `data.reason` says which. */
  dropped: "decision.dropped",
  /** A decision failed or passed its timeout. */
  failed: "decision.failed",
  /** The configured bundle version is not run by this build; the build default ran (once per version). */
  bundleFallback: "decision.bundle.fallback",
  /** An AI BLOCK of the last active administrator was turned into a CHALLENGE. */
  lastAdminProtected: "decision.last-admin.protected",
  /** A caller without ROLE_ADMIN asked the security-decisions admin API. */
  adminDenied: "decision.admin.denied",
});

/** The EventBus event published when the last-administrator rule turned a BLOCK into a CHALLENGE. */
export const DECISION_ALERT_EVENT = "decisions.alert";

/** The payload of DECISION_ALERT_EVENT. */
export interface DecisionAlertPayload {
  readonly kind: "LAST_ADMIN_BLOCK_PREVENTED";
  readonly userId: string;
  readonly eventId: string;
  readonly decisionId: string;
}

/** The zero-trust `source` of the actions the pipeline writes. */
export const DECISION_PIPELINE_SOURCE = "ai-decision";
