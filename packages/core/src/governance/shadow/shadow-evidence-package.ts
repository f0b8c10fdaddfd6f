import type { BundleSelection } from "../../decisions/engine/bundle-selection.js";
import type { EvidencePackage } from "../../decisions/evidence/sealed-evidence-store.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import type { DecisionOutcome } from "../../decisions/pipeline/decision-maker.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";

/** One finished shadow run, to be sealed. */
export interface FinishedShadowRun {
  /** The package's id (new; never the enforced decision's). */
  readonly id: string;
  readonly event: DecisionEvent;
  /** The input as the enforced maker got it (already redacted for an external model). */
  readonly input: PromptInput;
  readonly selection: BundleSelection;
  readonly outcome: DecisionOutcome;
  readonly at: number;
}

/**
 * The evidence package of a shadow run (shadow run rule 4: sealed as stage SHADOW): its prompts as
 * sent, the input, and the shadow outcome with `stage: "SHADOW"`, `selectionSource: "SHADOW"` and
 * the SHADOW release. Its `redacted` list is empty: the input is the enforced decision's input as
 * sent, and the enforced package of the same `eventId` lists what was masked in it.
 */
export function shadowEvidencePackage(run: FinishedShadowRun): EvidencePackage {
  const { event, outcome } = run;
  return {
    id: run.id,
    eventId: event.id,
    ...(event.correlationId === undefined ? {} : { correlationId: event.correlationId }),
    at: run.at,
    prompts: outcome.prompts,
    input: run.input,
    metadata: {
      eventKind: event.kind,
      userId: event.userId ?? "",
      action: outcome.action,
      riskScore: outcome.riskScore,
      confidence: outcome.confidence,
      reasons: outcome.reasons,
      layer: outcome.layer,
      bundleVersion: outcome.bundleVersion,
      bundleHash: outcome.bundleHash,
      selectionSource: "SHADOW",
      stage: "SHADOW",
      ...(run.selection.release === undefined ? {} : { release: run.selection.release }),
      model: outcome.model,
      timings: outcome.timings,
      ...(outcome.floorApplied ? { floorApplied: outcome.floorApplied } : {}),
      ...(outcome.fallback ? { fallback: outcome.fallback } : {}),
      redacted: [],
    },
  };
}
