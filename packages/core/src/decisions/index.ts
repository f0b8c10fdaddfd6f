// @platform/core/decisions: the AI security-decision module. The pipeline around the model: events
// from what the platform already signals, the canonical context (PIP), the bundle selector, a
// bounded off-request-path queue with caps, redaction and a kill switch, and the writes of an
// outcome to zero trust, the audit trail, the decision history and the evidence store.

// Plugging in
export { decisionsPipelinePlugin } from "./pipeline/decisions-pipeline-plugin.js";
export {
  DECISION_AUDIT_POLL_INTERVAL,
  DECISION_CALLS_PER_DAY,
  DECISION_CALLS_PER_MINUTE,
  DECISION_DENIALS_THRESHOLD,
  DECISION_DENIALS_WINDOW,
  DECISION_ENABLED,
  DECISION_EVIDENCE_CAPACITY,
  DECISION_HISTORY_LIMIT,
  DECISION_PENDING_TTL,
  DECISION_PIPELINE_PROPERTIES,
  DECISION_QUEUE_CAPACITY,
  DECISION_QUEUE_CONCURRENCY,
  DECISION_REDACTION_ALLOW_ADDRESS,
  DECISION_REDACTION_ALLOW_EMAIL,
  DECISION_REDACTION_ALLOW_FREE_TEXT,
  DECISION_TIMEOUT,
  type DecisionPipelineSettings,
  decisionPipelineSettings,
} from "./decisions.properties.js";

// The pipeline
export {
  type DecisionDropReason,
  DecisionPipeline,
  type DecisionPipelineParts,
  type DecisionPipelineStats,
  type DecisionSubmission,
} from "./pipeline/decision-pipeline.js";
export { DECISION_EVENT_KINDS, type DecisionEvent, type DecisionEventKind } from "./pipeline/decision-event.js";
export { DECISION_AUDIT_SIGNALS, DecisionEventSources } from "./pipeline/decision-event-sources.js";
export { type BuiltContext, DecisionContextBuilder, withEventLine } from "./pipeline/decision-context-builder.js";
export { ConfigurationBundleSelector } from "./pipeline/bundle-selector.js";
export { type BundleSelection, SELECTION_SOURCES, type SelectionSource } from "./pipeline/bundle-selection.js";
export {
  type DecidedEvent,
  DecisionOutcomeWriter,
  type WrittenDecision,
} from "./pipeline/decision-outcome-writer.js";
export {
  type DecisionJob,
  DecisionQueue,
  type DecisionQueueOptions,
  type DecisionQueueStats,
} from "./pipeline/decision-queue.js";
export { type CapVerdict, ModelCallCaps } from "./pipeline/model-call-caps.js";
export { type RedactedInput, type RedactionPolicy, redactForExternalModel } from "./pipeline/prompt-redaction.js";
export { ADMIN_AUTHORITY, isActiveAdmin, LastAdminGuard } from "./pipeline/last-admin-guard.js";
export {
  DECISION_ALERT_EVENT,
  DECISION_PIPELINE_SOURCE,
  type DecisionAlertPayload,
  DECISIONS_AUDIT,
} from "./pipeline/decisions-audit.js";

// Default adapters (the ports are in /ports)
export { InMemoryDecisionHistoryStore, type InMemoryDecisionHistoryStoreOptions } from "./history/in-memory-decision-history-store.js";
export { InMemorySealedEvidenceStore } from "./evidence/in-memory-sealed-evidence-store.js";
