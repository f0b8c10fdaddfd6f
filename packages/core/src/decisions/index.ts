// @platform/core/decisions: the AI security-decision module. The pipeline around the model: events
// from what the platform already signals, the canonical context (PIP), the bundle selector, a
// bounded off-request-path queue with caps, redaction and a kill switch, and the writes of an
// outcome to zero trust, the audit trail, the decision history and the evidence store. The ports
// (DecisionMaker, DecisionHistoryStore, SealedEvidenceStore) are in /ports, the history contract
// suite in /testing.

// Plugging in
export { decisionsPipelinePlugin } from "./pipeline/decisions-pipeline-plugin.js";

// The pipeline (a service: `platform.resolve(DecisionPipeline).submit(event)`)
export {
  type DecisionDropReason,
  DecisionPipeline,
  type DecisionPipelineStats,
  type DecisionSubmission,
} from "./pipeline/decision-pipeline.js";
export {
  DECISION_EVENT_KINDS,
  type DecisionEvent,
  type DecisionEventKind,
} from "./pipeline/decision-event.js";
export {
  type BundleSelection,
  SELECTION_SOURCES,
  type SelectionSource,
} from "./pipeline/bundle-selection.js";
export {
  DECISION_ALERT_EVENT,
  DECISION_PIPELINE_SOURCE,
  type DecisionAlertPayload,
  DECISIONS_AUDIT,
} from "./pipeline/decisions-audit.js";

// Default adapters (the ports are in /ports)
export {
  InMemoryDecisionHistoryStore,
  type InMemoryDecisionHistoryStoreOptions,
} from "./history/in-memory-decision-history-store.js";
export { InMemorySealedEvidenceStore } from "./evidence/in-memory-sealed-evidence-store.js";
