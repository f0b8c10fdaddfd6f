import { oneLine } from "../../prompts/layouts/v20/value-forms.js";
import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectionContext, PromptView } from "../inspection-context.js";
import type { PromptLine } from "../prompt-lines.js";

const STATE = /^(\d+) drawn of (\d+)$/;

/** True when record `b` may follow record `a`: same target first, then latest first (time, then the higher id). */
function inOrder(a: readonly string[], b: readonly string[], target: string | undefined): boolean {
  const sameA = target !== undefined && a[4] === target;
  const sameB = target !== undefined && b[4] === target;
  if (sameA !== sameB) return sameA;
  if (a[1] !== b[1]) return a[1]! > b[1]!;
  return a[0]! > b[0]!;
}

function checkState(
  ctx: InspectionContext,
  view: PromptView,
  records: readonly PromptLine[],
  out: CheckFindings,
): void {
  const state = view.lines.find((l) => l.kind === "state");
  out.count();
  const m = state ? STATE.exec(state.value!) : null;
  if (!state || !m) {
    out.mismatch("STATE_LINE", "PAST RECORDS does not open with `state: <drawn> drawn of <found>`", {
      location: view.at(state?.line),
    });
    return;
  }
  if (Number(m[1]) !== records.length)
    out.mismatch(
      "STATE_COUNT_DIFFERS",
      `the state line says ${m[1]} drawn, the block draws ${records.length}`,
      { location: view.at(state.line) },
    );
  if (Number(m[2]) !== ctx.pkg.input.pastRecords.length)
    out.mismatch(
      "STATE_FOUND_DIFFERS",
      `the state line says ${m[2]} found, the sealed context holds ${ctx.pkg.input.pastRecords.length}`,
      { location: view.at(state.line) },
    );
}

/**
 * PAST_RECORD_NOTATION: the state line counts the records drawn (and those the sealed context
 * found); each record line has exactly twelve fields; the order is same target first, then latest
 * first (by time, then the higher id), within the block's cap.
 */
export function pastRecordNotation(ctx: InspectionContext, dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("PAST_RECORD_NOTATION");
  const target =
    ctx.pkg.input.request.target === undefined ? undefined : oneLine(ctx.pkg.input.request.target);
  const width = dictionary.pastRecords.fields.length;
  for (const view of ctx.prompts) {
    const records = view.lines.filter((l) => l.kind === "record");
    checkState(ctx, view, records, out);
    const rows = records.map((r) => r.value!.split(" | "));
    records.forEach((record, i) => {
      out.count();
      const at = { location: view.at(record.line), factId: record.factId, key: `past-record:${rows[i]![0]}` };
      if (rows[i]!.length !== width)
        out.mismatch("FIELD_COUNT", `a record line has ${rows[i]!.length} fields, not ${width}`, at);
      else if (i > 0 && rows[i - 1]!.length === width && !inOrder(rows[i - 1]!, rows[i]!, target))
        out.mismatch(
          "RECORD_ORDER",
          `record ${rows[i]![0]} stands after ${rows[i - 1]![0]}: same target first, then latest first`,
          at,
        );
    });
  }
  return out;
}
