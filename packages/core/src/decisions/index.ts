// @keyward/core/decisions: what a host writes against the security-decision pipeline: its plugins
// (the model side and the pipeline), the pipeline it submits events to
// (`platform.resolve(DecisionPipeline).submit(event)`) with the event's type, and the alert it
// publishes. The DecisionModel port a host may bring is in /ports with the decision history and the
// evidence store; the analyst, the inspector, the floors, the engine and the default adapters are
// registered by the plugins (docs/security-decisions.md describes all of it).

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./decisions-error-codes.js";

// Plugging in
export { createDecisionsPlugin, decisionsPlugin } from "./decisions-plugin.js";
export { decisionsPipelinePlugin } from "./pipeline/decisions-pipeline-plugin.js";

// The pipeline a host submits to, and the alert it publishes
export { DecisionPipeline } from "./pipeline/decision-pipeline.js";
export type { DecisionEvent } from "./pipeline/decision-event.js";
export { DECISION_ALERT_EVENT } from "./pipeline/decisions-audit.js";
export { EvidenceChainVerifier } from "./evidence/evidence-chain-verifier.js";
