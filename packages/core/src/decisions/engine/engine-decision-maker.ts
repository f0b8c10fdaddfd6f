import type {
  DecisionMaker,
  DecisionModelInfo,
  DecisionOutcome,
  DecisionRequest,
} from "../pipeline/decision-maker.js";
import { describeFloor } from "../floors/minimum-action-rules.js";
import type { DecisionModel } from "../model/decision-model.js";
import type { DecisionEngine } from "./decision-engine.js";
import type { DecisionEngineResult } from "./decision-record.js";

/** Longest fallback text an outcome carries (the audit record and the evidence repeat it). */
const MAX_FALLBACK = 200;

/**
 * The pipeline's DecisionMaker over the DecisionEngine: the model side joined to the pipeline. It
 * names the engine's model (`external` from the model itself: the OpenAI-compatible adapter is, the
 * offline analyst is not; a model that does not say counts as external, so its prompts are
 * redacted) and turns the engine's record and layers into the outcome the pipeline writes.
 */
export class EngineDecisionMaker implements DecisionMaker {
  readonly model: DecisionModelInfo;

  constructor(private readonly o: { readonly engine: DecisionEngine; readonly model: DecisionModel }) {
    this.model = { id: o.model.name, external: o.model.external ?? true };
  }

  /** Decides the request's context under its selection; rejects only as `DecisionEngine.decide` does. */
  async decide(request: DecisionRequest, signal: AbortSignal): Promise<DecisionOutcome> {
    const result = await this.o.engine.decide(request.input, request.selection, signal);
    return outcomeOf(result, this.model);
  }
}

/** The pipeline's outcome of an engine result: the record's fields, one sent prompt per layer. */
export function outcomeOf(result: DecisionEngineResult, model: DecisionModelInfo): DecisionOutcome {
  const { record, layers } = result;
  const timings: Record<string, number> = { totalMs: record.timings.totalMs };
  for (const t of record.timings.layers) timings[`${t.layer.toLowerCase()}Ms`] = t.ms;
  return {
    action: record.action,
    riskScore: record.riskScore,
    confidence: record.confidence,
    reasons: record.reasons,
    layer: record.layer,
    bundleVersion: record.bundle.version,
    bundleHash: record.bundle.hash,
    selectionSource: record.selectionSource,
    model,
    timings,
    ...(record.floor ? { floorApplied: describeFloor(record.floor) } : {}),
    ...(record.fallback
      ? { fallback: `${record.fallback.code}: ${record.fallback.detail}`.slice(0, MAX_FALLBACK) }
      : {}),
    prompts: layers.map((l) => ({ layer: l.layer, system: l.system, user: l.user })),
    modelCalls: layers.reduce((n, l) => n + l.attempts.length, 0),
  };
}
