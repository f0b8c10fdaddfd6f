// o200k_base is the encoding of the current OpenAI model families (GPT-4o, GPT-4.1, o-series); the
// tables ship inside gpt-tokenizer, so counting needs no download at run time. For other vendors'
// models it is an estimate, which the budgets' headroom absorbs.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** The encoding every prompt budget is counted in. */
export const TOKEN_ENCODING = "o200k_base";

/** Tokens of `text` in TOKEN_ENCODING (special-token text is counted as plain text). */
export function countTokens(text: string): number {
  return countO200k(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() });
}

/** Texts whose count is kept: a bundle's system prompts are few and rendered on every decision. */
const SYSTEM_COUNTS_KEPT = 64;
const systemCounts = new Map<string, number>();

/**
 * `countTokens` of a system prompt, remembered: a bundle renders the same few system texts (one per
 * profile) for every decision, and counting one costs about as much as the rest of the render.
 * Bounded: past SYSTEM_COUNTS_KEPT texts the oldest is forgotten.
 */
export function countSystemTokens(system: string): number {
  const known = systemCounts.get(system);
  if (known !== undefined) return known;
  const count = countTokens(system);
  if (systemCounts.size >= SYSTEM_COUNTS_KEPT) systemCounts.delete(systemCounts.keys().next().value!);
  systemCounts.set(system, count);
  return count;
}
