import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { BundleSelection } from "../engine/bundle-selection.js";
import { applyFloors, describeFloor } from "../floors/minimum-action-rules.js";
import { inspectorDefinitionOf } from "../inspector/inspector-definition.js";
import type { DecisionModelInfo, DecisionOutcome } from "./decision-maker.js";
import type { CapVerdict } from "./model-call-caps.js";

/**
 * The recorded fallback decision of a high-severity event that a cap kept from the model: the
 * bundle's `onViolation` action (ESCALATE in both bundles), raised by its minimum action rules like
 * any decision, with no risk score, confidence 0 and no prompt sent. So a subject whose behaviour
 * turned risky while the model calls were spent is still decided, and never let through undecided.
 */
export function cappedDecision(
  cap: Exclude<CapVerdict, "ok">,
  selection: BundleSelection,
  input: PromptInput,
  model: DecisionModelInfo,
): DecisionOutcome {
  const { bundle } = selection;
  const { action, floor } = applyFloors(inspectorDefinitionOf(bundle).onViolation, bundle, input);
  return {
    action,
    riskScore: null,
    confidence: 0,
    reasons: [],
    layer: "L1",
    bundleVersion: selection.version,
    bundleHash: selection.bundleHash,
    selectionSource: selection.source,
    model,
    timings: { totalMs: 0 },
    ...(floor ? { floorApplied: describeFloor(floor) } : {}),
    fallback: `DECISION_MODEL_CAPPED: the ${cap} on model calls was reached; no model was asked`,
    prompts: [],
    modelCalls: 0,
  };
}
