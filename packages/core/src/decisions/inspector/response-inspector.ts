import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { DecisionAction } from "../engine/decision-record.js";
import { inspectorDefinitionOf } from "./inspector-definition.js";
import { citableRefs } from "./prompt-citations.js";
import type { AnswerRefusal } from "./refusal-codes.js";
import { answerValidator } from "./response-schema.js";

/** A reason of a decision: its code and what it cites (fact IDs in v20, section names in v19). */
export interface DecisionReason {
  readonly code: string;
  readonly refs: readonly string[];
}

/** An answer the inspector accepted, with the reasons read from it. */
export interface AcceptedAnswer {
  readonly action: DecisionAction;
  readonly riskScore: number;
  readonly confidence: number;
  readonly reasoning: string;
  readonly mitre: readonly string[];
  readonly evidenceRefs: readonly string[];
  readonly reasons: readonly DecisionReason[];
}

/** The inspector's verdict on one answer: accepted, or refused with one stable code and why. */
export type InspectorVerdict =
  | { readonly accepted: true; readonly answer: AcceptedAnswer }
  | { readonly accepted: false; readonly refusal: AnswerRefusal; readonly detail: string };

/** A coded reason inside the reasoning text: `EXTERNAL_NETWORK[F9]`, `ADMIN_ACTION[F5,F8]`. */
const CODED_REASON = /\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\[([^\]\n]*)\]/g;
/** A fact ID named anywhere in the reasoning text. */
const FACT_ID = /\bF\d+\b/g;
/** The code of the one reason recorded for an answer that codes none: it stands for the evidence refs. */
export const UNCODED_REASON = "MODEL_EVIDENCE";

const refuse = (refusal: AnswerRefusal, detail: string): InspectorVerdict => ({
  accepted: false,
  refusal,
  detail,
});

/**
 * The reasons of an answer: every `CODE[ref,ref]` its reasoning writes; an answer without one has a
 * single MODEL_EVIDENCE reason citing its evidence refs (none when it cites none).
 */
export function reasonsOf(reasoning: string, evidenceRefs: readonly string[]): DecisionReason[] {
  const coded = [...reasoning.matchAll(CODED_REASON)].map((m) => ({
    code: m[1]!,
    refs: m[2]!
      .split(",")
      .map((r) => r.trim())
      .filter((r) => r !== ""),
  }));
  if (coded.length) return coded;
  return evidenceRefs.length ? [{ code: UNCODED_REASON, refs: [...evidenceRefs] }] : [];
}

/**
 * Checks one answer text against the bundle it answers: the JSON schema (ajv, compiled once per
 * bundle), the action vocabulary, the score ranges, and that every evidence ref, every reason's
 * ref and (v20) every fact ID the reasoning names is on a line of `userPrompt`.
 */
export function inspectAnswer(text: string, bundle: BundleDefinition, userPrompt: string): InspectorVerdict {
  const definition = inspectorDefinitionOf(bundle);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse("ANSWER_NOT_JSON", `not JSON: ${JSON.stringify(text.slice(0, 60))}`);
  }
  const validate = answerValidator(bundle, definition);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    return refuse("ANSWER_SCHEMA_VIOLATION", `${first?.instancePath || "(answer)"} ${first?.message ?? ""}`);
  }
  const answer = value as Omit<AcceptedAnswer, "reasons" | "action"> & { action: string };
  if (!(definition.actions as readonly string[]).includes(answer.action))
    return refuse("ANSWER_ACTION_UNKNOWN", `action ${JSON.stringify(answer.action.slice(0, 40))}`);
  for (const field of ["riskScore", "confidence"] as const) {
    const [min, max] = definition.ranges[field];
    if (!(answer[field] >= min && answer[field] <= max))
      return refuse("ANSWER_SCORE_OUT_OF_RANGE", `${field} ${answer[field]} outside [${min}, ${max}]`);
  }
  const citable = citableRefs(userPrompt, definition.evidenceRefs);
  const reasons = reasonsOf(answer.reasoning, answer.evidenceRefs);
  const named =
    definition.evidenceRefs === "fact-ids-present-in-prompt" ? (answer.reasoning.match(FACT_ID) ?? []) : [];
  const cited = [...answer.evidenceRefs, ...reasons.flatMap((r) => r.refs), ...named];
  const empty = reasons.find((r) => r.refs.length === 0);
  if (empty) return refuse("ANSWER_CITES_UNKNOWN_FACT", `reason ${empty.code} cites no fact`);
  const stray = cited.find((ref) => !citable.has(ref));
  if (stray !== undefined)
    return refuse("ANSWER_CITES_UNKNOWN_FACT", `${JSON.stringify(stray.slice(0, 40))} is on no prompt line`);
  return {
    accepted: true,
    answer: { ...answer, action: answer.action as DecisionAction, reasons },
  };
}
