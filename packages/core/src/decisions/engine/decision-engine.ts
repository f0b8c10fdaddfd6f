import type { InjectionToken } from "tsyringe";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { BundleSelection } from "./bundle-selection.js";
import type { DecisionEngineResult } from "./decision-record.js";

/**
 * Decides one event: renders its context with the selected bundle, asks the model in L1 and, on
 * low confidence or an ESCALATE, in L2, checks every answer, falls back on a bad one, and raises
 * the result to the bundle's minimum action floor. It writes nothing: the caller stores the
 * record, audits it and seals the layers' prompts as evidence.
 */
export interface DecisionEngine {
  /**
   * The decision of `context` under `selection`. Resolves with a record even when the model
   * failed (a fallback decision); rejects only with DECISION_BUNDLE_UNSUPPORTED (a bundle this
   * pipeline cannot read), before any model call. `signal` aborting ends the decision with what
   * the layers reached (a fallback when no answer was accepted).
   */
  decide(
    context: PromptInput,
    selection: BundleSelection,
    signal: AbortSignal,
  ): Promise<DecisionEngineResult>;
}

/** DI token of the DecisionEngine (default: the layered engine over the registered DecisionModel). */
export const DecisionEngine: InjectionToken<DecisionEngine> = Symbol.for("platform.DecisionEngine");
