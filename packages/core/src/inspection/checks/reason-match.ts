import { ANALYST_RULES } from "../../decisions/analyst/analyst-rules.js";
import { readFactSheet } from "../../decisions/analyst/fact-sheet.js";
import { UNCODED_REASON } from "../../decisions/inspector/response-inspector.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectionContext, PromptView } from "../inspection-context.js";

type Reason = { readonly code: string; readonly refs: readonly string[] };

function checkReason(
  reason: Reason,
  view: PromptView,
  held: readonly string[] | undefined | "UNKNOWN_CODE",
  out: CheckFindings,
): void {
  out.count();
  const lineOf = (ref: string) => view.lines.find((l) => l.factId === ref);
  for (const ref of reason.refs) {
    const line = lineOf(ref);
    if (line === undefined)
      out.mismatch(
        "REF_NOT_ON_LINE",
        `${reason.code} cites ${ref}, which is on no line of the ${view.prompt.layer} prompt`,
        { location: view.at(), factId: ref },
      );
    else if (Array.isArray(held) && !held.includes(ref))
      out.mismatch(
        "CITES_WRONG_LINE",
        `${reason.code} cites ${ref} ("${line.text}"), which is no line its condition reads (it reads ${held.join(", ")})`,
        { location: view.at(line.line), factId: ref },
      );
  }
  if (held === undefined)
    out.mismatch(
      "CONDITION_DOES_NOT_HOLD",
      `${reason.code}'s condition does not hold on the sealed context`,
      { location: view.at() },
    );
  if (held === "UNKNOWN_CODE")
    out.unverifiable(
      "CONDITION_UNKNOWN",
      `${reason.code} is no code of the reason table: its condition cannot be checked`,
      { location: view.at() },
    );
}

/**
 * REASON_MATCH: each reason of the sealed decision cites IDs on lines of the deciding layer's
 * prompt; for a code of the reason table (docs/security-decisions.md), its condition holds on the
 * sealed context and every line it cites is one the condition reads. MODEL_EVIDENCE has no
 * condition; any other code is UNVERIFIABLE (CONDITION_UNKNOWN).
 */
export function reasonMatch(ctx: InspectionContext): CheckFindings {
  const out = new CheckFindings("REASON_MATCH");
  const { metadata } = ctx.pkg;
  const view = ctx.prompts.findLast((p) => p.prompt.layer === metadata.layer);
  out.count();
  if (metadata.reasons === undefined) {
    out.unverifiable("REASONS_NOT_SEALED", "the package does not seal the decision's reasons");
    return out;
  }
  if (view === undefined) {
    if (metadata.reasons.length)
      out.mismatch("PROMPT_MISSING", `the deciding layer ${metadata.layer} has no prompt in the package`);
    return out;
  }
  const sheet = view.expected ? readFactSheet(view.expected.user) : undefined;
  for (const reason of metadata.reasons) {
    const rule = ANALYST_RULES.find((r) => r.code === reason.code);
    let held: readonly string[] | undefined | "UNKNOWN_CODE";
    if (reason.code === UNCODED_REASON) held = reason.refs;
    else if (rule === undefined || sheet === undefined) held = "UNKNOWN_CODE";
    else held = rule.holds(sheet)?.map((f) => f.ref);
    checkReason(reason, view, held, out);
  }
  return out;
}
