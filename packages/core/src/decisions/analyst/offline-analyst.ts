import { PlatformError } from "../../kernel/platform-error.js";
import type { DecisionBudget, DecisionModel } from "../model/decision-model.js";
import { confidenceOf } from "./analyst-confidence.js";
import { ANALYST_RULES, BASE_RISK, RISK_BANDS, VALID_ACCOUNTS_CODES } from "./analyst-rules.js";
import { readFactSheet } from "./fact-sheet.js";

/** The analyst's answer fields, in the bundles' output format order. */
export interface AnalystAnswer {
  riskScore: number;
  confidence: number;
  action: string;
  reasoning: string;
  mitre: string[];
  evidenceRefs: string[];
}

const REASONING_MAX = 400;
/** Both layouts' L2 system text says this; the analyst reads it to know it is the second analysis. */
const SECOND_ANALYSIS = "You are the second analysis";
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Applies the rule table to one prompt: reads the user prompt's fact lines (by fact ID in v20, by
 * section in v19), adds the weight of every rule that holds to the base risk, maps the score to
 * its band's action, and takes its confidence from `confidenceOf` (the facts it needed and did not
 * find, and ambiguities). Deterministic: the same prompt, the same answer.
 */
export function analysePrompt(systemPrompt: string, userPrompt: string): AnalystAnswer {
  const sheet = readFactSheet(userPrompt);
  const held = ANALYST_RULES.flatMap((rule) => {
    const cited = rule.holds(sheet);
    return cited ? [{ rule, refs: [...new Set(cited.map((f) => f.ref))] }] : [];
  });
  const riskScore = round2(
    Math.min(
      1,
      held.reduce((sum, h) => sum + h.rule.weight, BASE_RISK),
    ),
  );
  const { confidence, notes: tail } = confidenceOf(
    sheet,
    held.map((h) => h.rule),
    riskScore,
    systemPrompt.includes(SECOND_ANALYSIS),
  );
  const action = RISK_BANDS.find((b) => riskScore < b.below)!.action;
  const weighted = held.map((h) => `${h.rule.code}[${h.refs.join(",")}] +${h.rule.weight}`);
  const plain = held.map((h) => `${h.rule.code}[${h.refs.join(",")}]`);
  let reasoning = [...weighted, ...tail].join("; ");
  if (reasoning.length > REASONING_MAX) reasoning = [...plain, ...tail].join("; ");
  if (reasoning.length > REASONING_MAX) reasoning = plain.join("; ").slice(0, REASONING_MAX);
  if (reasoning === "") reasoning = "no rule of the table holds";
  const codes = held.map((h) => h.rule.code);
  return {
    riskScore,
    confidence,
    action,
    reasoning,
    mitre: riskScore >= 0.55 && codes.some((c) => VALID_ACCOUNTS_CODES.includes(c)) ? ["T1078"] : [],
    evidenceRefs: [...new Set(held.flatMap((h) => h.refs))],
  };
}

/**
 * The built-in decision model: the offline analyst. It reads nothing but the two prompts it is
 * given, as any model would, and answers in the bundles' output format (docs/security-decisions.md
 * lists its rule table, bands and confidence).
 */
export class OfflineAnalyst implements DecisionModel {
  /** The name decision records carry. */
  readonly name = "builtin:offline-analyst/1";
  /** Runs in this process: its prompts need no redaction. */
  readonly external = false;

  async complete(
    systemPrompt: string,
    userPrompt: string,
    budget: DecisionBudget,
    signal: AbortSignal,
  ): Promise<string> {
    if (signal.aborted)
      throw new PlatformError("DECISION_MODEL_TIMEOUT", "The decision was aborted", {
        details: { reason: "aborted", timeoutMs: budget.timeoutMs },
      });
    return JSON.stringify(analysePrompt(systemPrompt, userPrompt));
  }
}
