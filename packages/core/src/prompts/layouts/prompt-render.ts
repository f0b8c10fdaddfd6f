import type { DrawnFact, UnknownFact } from "./v20/render-v20.js";

/** A rendered prompt: the texts sent and what the budget did to them. */
export interface PromptRender {
  readonly system: string;
  readonly user: string;
  readonly systemTokens: number;
  readonly userTokens: number;
  /** Sections (v19) or past record ids (v20) left out to meet the budget, in the order they were cut. */
  readonly omitted: readonly string[];
  /** True when the parts that are never cut exceed the user budget on their own. */
  readonly overBudget: boolean;
  /** v20: the facts drawn with a value, in drawn order. */
  readonly facts?: readonly DrawnFact[];
  /** v20: the facts named on the UNKNOWN line. */
  readonly unknown?: readonly UnknownFact[];
}
