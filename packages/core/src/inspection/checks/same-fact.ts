import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { PromptView } from "../inspection-context.js";
import { drawnLines } from "./drawn-lines.js";

/**
 * SAME_FACT: a fact stated twice has one value: the same dictionary key or past record on two lines,
 * in one prompt or in the package's two prompts (L1 and L2), and the same fact ID twice in one prompt.
 */
export function sameFact(prompts: readonly PromptView[], dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("SAME_FACT");
  const byKey = new Map<string, { value: string; where: string }>();
  for (const view of prompts) {
    const byId = new Map<string, string>();
    for (const { key, line } of drawnLines(view, dictionary)) {
      out.count();
      const at = { location: view.at(line.line), key, factId: line.factId };
      const first = byKey.get(key);
      if (first === undefined)
        byKey.set(key, { value: line.value!, where: `${view.prompt.layer} line ${line.line}` });
      else if (first.value !== line.value)
        out.mismatch(
          "FACT_VALUES_DIFFER",
          `${key} reads "${line.value}" here and "${first.value}" on ${first.where}`,
          at,
        );
      const sameId = byId.get(line.factId!);
      if (sameId !== undefined && sameId !== line.value)
        out.mismatch("FACT_ID_TWICE", `${line.factId} stands on two lines with different values`, at);
      byId.set(line.factId!, line.value!);
    }
  }
  return out;
}
