// @platform/core/decisions: the model side of the security-decision pipeline. A DecisionModel port
// (the offline analyst by default, an OpenAI-compatible chat-completions adapter), the response
// inspector, the minimum action floors and the two-layer DecisionEngine that a caller (the event
// queue) asks for a DecisionRecord. docs/security-decisions.md describes all of it.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./decisions-error-codes.js";

// Plugging in
export { createDecisionsPlugin, type DecisionsPluginOptions, decisionsPlugin } from "./decisions-plugin.js";
export { DECISIONS_ERROR_CODES, type DecisionsErrorDetails } from "./decisions-error-codes.js";

// The model port and its adapters
export { type DecisionBudget, DecisionModel } from "./model/decision-model.js";
export { type AnalystAnswer, analysePrompt, OfflineAnalyst } from "./analyst/offline-analyst.js";
export {
  type AnalystRule,
  ANALYST_RULES,
  BASE_RISK,
  RISK_BANDS,
} from "./analyst/analyst-rules.js";
export {
  AMBIGUITY_PENALTY,
  type AnalystConfidence,
  BAND_EDGE,
  confidenceOf,
  FULL_CONFIDENCE,
  GROUNDING_FACTS,
  MIN_CONFIDENCE,
  REQUEST_FACTS,
  UNKNOWN_DETAIL_PENALTY,
  UNKNOWN_GROUNDING_PENALTY,
} from "./analyst/analyst-confidence.js";
export {
  OpenAiCompatibleModel,
  type OpenAiCompatibleModelOptions,
} from "./openai/openai-compatible-model.js";

// The response inspector and the floors
export {
  type AcceptedAnswer,
  type DecisionReason,
  type InspectorVerdict,
  inspectAnswer,
  reasonsOf,
  UNCODED_REASON,
} from "./inspector/response-inspector.js";
export { ANSWER_REFUSALS, type AnswerRefusal } from "./inspector/refusal-codes.js";
export {
  type AppliedFloor,
  applyFloors,
  type MinimumActionRules,
  minimumActionRulesOf,
} from "./floors/minimum-action-rules.js";

// The engine and its record
export { DecisionEngine } from "./engine/decision-engine.js";
export {
  LayeredDecisionEngine,
  type LayeredDecisionEngineOptions,
} from "./engine/layered-decision-engine.js";
export { MODEL_ASKS_PER_LAYER } from "./engine/run-layer.js";
export { EngineDecisionMaker, outcomeOf } from "./engine/engine-decision-maker.js";
export { type InProcessEngineOptions, inProcessDecisionMaker } from "./engine/in-process-decision-maker.js";
// The pipeline around the model: events from what the platform already signals, the canonical
// context (PIP), the bundle selector, a bounded off-request-path queue with caps, redaction and a
// kill switch, and the writes of an outcome to zero trust, the audit trail, the decision history and
// the evidence store. The ports (DecisionMaker, DecisionHistoryStore, SealedEvidenceStore) are in
// /ports, the history contract suite in /testing.

// Plugging in
export { decisionsPipelinePlugin } from "./pipeline/decisions-pipeline-plugin.js";

// The pipeline (a service: `platform.resolve(DecisionPipeline).submit(event)`)
export {
  type DecisionDropReason,
  type DecisionFallbackReason,
  DecisionPipeline,
  type DecisionPipelineStats,
  type DecisionSubmission,
} from "./pipeline/decision-pipeline.js";
export {
  DECISION_EVENT_KINDS,
  type DecisionEvent,
  type DecisionEventKind,
  type DecisionEventSeverity,
  severityOf,
} from "./pipeline/decision-event.js";
export {
  DECISION_EVENT_MAPPING,
  type DecisionEventMappingRow,
  type DecisionSignal,
  decisionEventKindOf,
} from "./pipeline/decision-event-mapping.js";
export {
  type BundleSelection,
  SELECTION_SOURCES,
  type SelectionSource,
  selectionFromCatalog,
} from "./engine/bundle-selection.js";
export type {
  DecisionAction,
  DecisionFallback,
  DecisionLayer,
  DecisionEngineResult,
  DecisionRecord,
  LayerOutcome,
  ModelAttempt,
} from "./engine/decision-record.js";
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
// For adapters of the ports: the checks every DecisionHistoryStore makes before storing or reading
export {
  checkDecisionHistoryLimit,
  checkDecisionHistoryRecord,
} from "./history/decision-history-validation.js";
