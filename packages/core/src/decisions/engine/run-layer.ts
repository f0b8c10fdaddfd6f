import type { Clock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { BudgetProfile } from "../../prompts/bundles/budget-profile.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import { inspectorDefinitionOf } from "../inspector/inspector-definition.js";
import { inspectAnswer } from "../inspector/response-inspector.js";
import type { DecisionModel } from "../model/decision-model.js";
import type { DecisionFallback, DecisionLayer, LayerOutcome, ModelAttempt } from "./decision-record.js";

/** Everything one layer needs: the model, the bundle and profile it renders with, the context. */
export interface LayerRun {
  readonly layer: DecisionLayer;
  readonly model: DecisionModel;
  readonly bundle: BundleDefinition;
  readonly profile: BudgetProfile;
  readonly timeoutMs: number;
  readonly context: PromptInput;
  readonly clock: Clock;
  readonly signal: AbortSignal;
}

/** How many times a layer asks the model: the first answer and one retry after a refused one. */
export const MODEL_ASKS_PER_LAYER = 2;

/**
 * One layer: renders the context with the layer's profile, asks the model, and has the response
 * inspector check the answer. A refused answer is asked again once; a model error (the adapter has
 * already retried what retrying can fix) or a second refusal ends in the bundle's fallback action
 * (B6 `onViolation`), with no risk score and confidence 0.
 */
export async function runLayer(run: LayerRun): Promise<LayerOutcome> {
  const { system, user } = run.bundle.render(run.context, run.profile);
  const attempts: ModelAttempt[] = [];
  const base = { layer: run.layer, profile: run.profile.name, system, user, attempts };
  let fallback: DecisionFallback | undefined;
  while (attempts.length < MODEL_ASKS_PER_LAYER && !run.signal.aborted) {
    const started = run.clock.now();
    let answer: string;
    try {
      answer = await run.model.complete(
        system,
        user,
        { profile: run.profile, timeoutMs: run.timeoutMs },
        run.signal,
      );
    } catch (error) {
      const code = isPlatformError(error) ? error.code : "DECISION_MODEL_UNAVAILABLE";
      const detail = isPlatformError(error) ? error.message : "the model failed unexpectedly";
      attempts.push({ outcome: code, detail, ms: run.clock.now() - started });
      fallback = { code, detail };
      break;
    }
    const verdict = inspectAnswer(answer, run.bundle, user);
    const ms = run.clock.now() - started;
    if (verdict.accepted) {
      attempts.push({ outcome: "ACCEPTED", answer, ms });
      const { action, riskScore, confidence, reasons } = verdict.answer;
      return { ...base, action, riskScore, confidence, reasons };
    }
    attempts.push({ outcome: verdict.refusal, answer, detail: verdict.detail, ms });
    fallback = { code: verdict.refusal, detail: verdict.detail };
  }
  fallback ??= {
    code: "DECISION_MODEL_TIMEOUT",
    detail: "the decision was aborted before the model was asked",
  };
  const action = inspectorDefinitionOf(run.bundle).onViolation;
  return { ...base, action, riskScore: null, confidence: 0, reasons: [], fallback };
}
