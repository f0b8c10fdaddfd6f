import type { InjectionToken } from "tsyringe";
import type { BudgetProfile } from "../../prompts/bundles/budget-profile.js";

/**
 * What one model call may spend: the bundle's budget profile of the layer (element B8: total,
 * system, user and output tokens) and the layer's time budget.
 */
export interface DecisionBudget {
  /** The layer's budget profile as the bundle declares it (`L1-standard`, `L2-deep`). */
  readonly profile: BudgetProfile;
  /** Milliseconds the whole call may take, retries included. */
  readonly timeoutMs: number;
}

/**
 * The model behind the security-decision pipeline: given the system and user prompt exactly as
 * rendered, answers with its text (the bundle's output format asks for one JSON object). The
 * answer is checked by the response inspector, never trusted as is.
 */
export interface DecisionModel {
  /** The model's name as decision records carry it (`builtin:offline-analyst/1`, `openai-compatible:gpt-4o-mini`). */
  readonly name: string;
  /**
   * True when prompts leave the platform (an HTTP API), so the pipeline redacts them first; false
   * for a model in this process (the offline analyst). Absent counts as external.
   */
  readonly external?: boolean;
  /**
   * The model's answer to one prompt. Rejects with DECISION_MODEL_TIMEOUT past `budget.timeoutMs`
   * or when `signal` aborts, DECISION_MODEL_UNAVAILABLE, DECISION_MODEL_REFUSED,
   * DECISION_MODEL_MALFORMED, MODEL_REDIRECT_REFUSED or MODEL_ANSWER_TOO_LARGE when the model gave
   * no answer text.
   */
  complete(
    systemPrompt: string,
    userPrompt: string,
    budget: DecisionBudget,
    signal: AbortSignal,
  ): Promise<string>;
}

/** DI token of the DecisionModel port (default: the built-in offline analyst). */
export const DecisionModel: InjectionToken<DecisionModel> = Symbol.for("platform.DecisionModel");
