/**
 * The response inspector's refusal codes, one per rule, with what each means. They are verdicts
 * on a model's answer, not errors: a refused answer is retried once, then decided by the fallback.
 */
export const ANSWER_REFUSALS = {
  ANSWER_NOT_JSON: "The answer text is not one JSON value.",
  ANSWER_SCHEMA_VIOLATION:
    "The answer is not an object with exactly the output format's fields of their types (reasoning within its length).",
  ANSWER_ACTION_UNKNOWN: "The action is not one of the bundle's actions (ALLOW, CHALLENGE, ESCALATE, BLOCK).",
  ANSWER_SCORE_OUT_OF_RANGE: "riskScore or confidence lies outside the bundle's range [0, 1].",
  ANSWER_CITES_UNKNOWN_FACT:
    "An evidence reference or a reason cites a fact ID (v20) or section (v19) that is on no line of the user prompt.",
} as const;

/** One of the response inspector's refusal codes. */
export type AnswerRefusal = keyof typeof ANSWER_REFUSALS;
