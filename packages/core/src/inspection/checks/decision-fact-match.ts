import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { PromptView } from "../inspection-context.js";
import { drawnLines } from "./drawn-lines.js";

/**
 * DECISION_FACT_MATCH: every fact the dictionary draws from the sealed context (the decision's
 * facts, in drawn order with their IDs) has its line in the sent prompt, with its value letter for
 * letter and its fact ID.
 */
export function decisionFactMatch(prompts: readonly PromptView[], dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("DECISION_FACT_MATCH");
  for (const view of prompts) {
    if (view.expected?.facts === undefined) {
      out.unverifiable("NO_BUDGET_PROFILE", `the bundle cannot render the ${view.prompt.layer} facts again`, {
        location: view.at(),
      });
      continue;
    }
    const sent = new Map<string, (typeof lines)[number]>();
    const lines = drawnLines(view, dictionary);
    for (const l of lines) if (!sent.has(l.key)) sent.set(l.key, l);
    for (const fact of view.expected.facts) {
      out.count();
      const at = { key: fact.key, factId: fact.id };
      const found = sent.get(fact.key);
      if (found === undefined) {
        out.mismatch("FACT_LINE_MISSING", `the fact ${fact.key} (${fact.id}: "${fact.value}") has no line`, {
          ...at,
          location: view.at(),
        });
        continue;
      }
      const location = view.at(found.line.line);
      if (found.line.value !== fact.value)
        out.mismatch(
          "VALUE_DIFFERS",
          `${fact.key} reads "${found.line.value}", the decision's fact is "${fact.value}"`,
          { ...at, location },
        );
      if (found.line.factId !== fact.id)
        out.mismatch(
          "FACT_ID_DIFFERS",
          `${fact.key} carries ${found.line.factId}, the decision's fact is ${fact.id}`,
          { ...at, location },
        );
    }
  }
  return out;
}
