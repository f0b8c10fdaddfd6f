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
