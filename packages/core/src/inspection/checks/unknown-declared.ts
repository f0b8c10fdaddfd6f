import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { dictionaryEntries } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectionContext, PromptView } from "../inspection-context.js";
import { drawnLines, missingLines, unknownItems } from "./drawn-lines.js";

function checkNamed(view: PromptView, dictionary: Dictionary, out: CheckFindings): void {
  const { line, items } = unknownItems(view);
  const expected = view.expected?.unknown ?? [];
  const drawn = new Map(drawnLines(view, dictionary).map((d) => [d.key, d.line]));
  const unknownAt = view.at(line?.line);
  for (const u of expected) {
    out.count();
    const named = items.find((i) => i.key === u.key);
    if (!named)
      out.mismatch(
        "UNKNOWN_NOT_DECLARED",
        `${u.key} could not be established (${u.kind}) and is not on the UNKNOWN line`,
        { location: unknownAt, key: u.key },
      );
    else if (named.kind !== u.kind)
      out.mismatch("UNKNOWN_KIND_DIFFERS", `${u.key} is named ${named.kind}, it is ${u.kind}`, {
        location: unknownAt,
        key: u.key,
      });
  }
  for (const item of items) {
    out.count();
    const alsoDrawn = drawn.get(item.key);
    if (alsoDrawn)
      out.mismatch(
        "UNKNOWN_ALSO_DRAWN",
        `${item.key} is named on the UNKNOWN line and drawn with "${alsoDrawn.value}"`,
        { location: view.at(alsoDrawn.line), key: item.key, factId: alsoDrawn.factId },
      );
    else if (!expected.some((u) => u.key === item.key))
      out.mismatch(
        "UNKNOWN_NOT_EXPECTED",
        `${item.key} is named unknown, but the sealed context establishes it`,
        { location: unknownAt, key: item.key },
      );
  }
  const order = dictionaryEntries(dictionary).map((e) => e.key);
  const ranks = items.map((i) => order.indexOf(i.key));
  if (ranks.some((r, i) => i > 0 && r < ranks[i - 1]!))
    out.mismatch("UNKNOWN_ORDER", "the UNKNOWN line does not name its facts in dictionary order", {
      location: unknownAt,
    });
}

function checkMissingLines(
  ctx: InspectionContext,
  view: PromptView,
  dictionary: Dictionary,
  out: CheckFindings,
): void {
  const missing = missingLines(view, dictionary);
  for (const m of missing) {
    out.count();
    const at = { location: view.at(m.line.line), key: m.key };
    if (m.entry!.note === "UNKNOWN_ONLY")
      out.mismatch(
        "MISSING_LINE_NOT_ALLOWED",
        `${m.key} is only named on the UNKNOWN line, never given a missing line`,
        at,
      );
    if (m.entry!.note === "OMIT_UNLESS_MARKED" && !ctx.pkg.input.markedMissing.includes(m.key))
      out.mismatch(
        "MISSING_LINE_NOT_MARKED",
        `${m.key} is left out unless the caller marked it, and it did not`,
        at,
      );
  }
  const entries = new Map(dictionaryEntries(dictionary).map((e) => [e.key, e]));
  for (const u of view.expected?.unknown ?? []) {
    const entry = entries.get(u.key);
    const ownLine =
      entry?.note === "LINE" || (entry?.note === "OMIT_UNLESS_MARKED" && u.kind === "UNAVAILABLE");
    if (!ownLine) continue;
    out.count();
    if (!missing.some((m) => m.key === u.key))
      out.mismatch(
        "MISSING_LINE_ABSENT",
        `${u.key} is missing and must have its own line saying "${entry!.missingText}"`,
        { location: view.at(), key: u.key },
      );
  }
}

/**
 * UNKNOWN_DECLARED: every fact the engine could not establish (from the sealed context) is on the
 * UNKNOWN line with its kind, in dictionary order; nothing named there is drawn with a value or
 * established by the context; missing values follow their entry's note (own line with the missing
 * text, left out unless marked, or only on the UNKNOWN line).
 */
export function unknownDeclared(ctx: InspectionContext, dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("UNKNOWN_DECLARED");
  for (const view of ctx.prompts) {
    checkNamed(view, dictionary, out);
    checkMissingLines(ctx, view, dictionary, out);
  }
  return out;
}
