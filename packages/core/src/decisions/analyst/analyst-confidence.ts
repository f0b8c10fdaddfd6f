import type { AnalystRule } from "./analyst-rules.js";
import { RISK_BANDS } from "./analyst-rules.js";
import type { FactSheet, SheetFactName } from "./fact-sheet.js";
import { SHEET_FACTS } from "./fact-sheet.js";

/** Confidence when nothing below takes any away. */
export const FULL_CONFIDENCE = 0.95;
/** Confidence never drops below this. */
export const MIN_CONFIDENCE = 0.2;
/** Facts no judgement of an event stands without: who, when, from which network. */
export const GROUNDING_FACTS: readonly SheetFactName[] = ["subject", "time", "network"];
/** Facts of the request an event is about; they count only when the prompt names its action or target. */
export const REQUEST_FACTS: readonly SheetFactName[] = ["action", "target", "class"];
/** Confidence lost per grounding or request fact the prompt does not state. */
export const UNKNOWN_GROUNDING_PENALTY = 0.15;
/** Confidence lost per other fact the rules read (device, account, pattern) that the prompt does not state. */
export const UNKNOWN_DETAIL_PENALTY = 0.03;
/** A score this close to a band's bound, or closer, sits on the edge between two actions. */
export const BAND_EDGE = 0.05;
/** Confidence lost for a score on a band's edge, and for a device stated trusted yet first seen within the hour. */
export const AMBIGUITY_PENALTY = 0.3;

/** How sure the analyst is of its answer, and the notes that say why it is less than full. */
export interface AnalystConfidence {
  readonly confidence: number;
  readonly notes: readonly string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The analyst's confidence: full, less a penalty for each grounding fact (and, for an event about a
 * request, each request fact) the prompt does not state, a small one for each other fact it does not
 * state, and a large one for each ambiguity (a score on a band's edge; a trusted device first seen
 * within the hour). The second analysis takes half of every penalty. Never below MIN_CONFIDENCE.
 */
export function confidenceOf(
  sheet: FactSheet,
  held: readonly AnalystRule[],
  riskScore: number,
  secondAnalysis: boolean,
): AnalystConfidence {
  const known = (name: SheetFactName) => sheet.facts.has(name);
  const aboutRequest = known("action") || known("target");
  const grounding = [...GROUNDING_FACTS, ...(aboutRequest ? REQUEST_FACTS : [])];
  const unknownGrounding = grounding.filter((name) => !known(name)).length;
  const unknownDetail = SHEET_FACTS.filter(
    (name) => !GROUNDING_FACTS.includes(name) && !REQUEST_FACTS.includes(name) && !known(name),
  ).length;
  const notes: string[] = [];
  const unknown = SHEET_FACTS.filter((name) => !known(name)).length;
  if (unknown) notes.push(`${unknown} of ${SHEET_FACTS.length} facts the rules read are not stated`);
  const edge = RISK_BANDS.some(
    (b) => Number.isFinite(b.below) && round2(Math.abs(riskScore - b.below)) <= BAND_EDGE,
  );
  if (edge) notes.push("the score is on the edge of two bands");
  const contradiction =
    sheet.facts.get("device-trusted")?.value === "yes" && held.some((rule) => rule.code === "NEW_DEVICE");
  if (contradiction) notes.push("a trusted device first seen within the hour");
  const share = secondAnalysis ? 0.5 : 1;
  const lost =
    unknownGrounding * UNKNOWN_GROUNDING_PENALTY +
    unknownDetail * UNKNOWN_DETAIL_PENALTY +
    (Number(edge) + Number(contradiction)) * AMBIGUITY_PENALTY;
  return { confidence: round2(Math.max(MIN_CONFIDENCE, FULL_CONFIDENCE - lost * share)), notes };
}
