import type { PromptInput } from "../../prompts/input/prompt-input.js";
import { factValue } from "../../prompts/layouts/v20/fact-values.js";
import { pastRecordFields } from "../../prompts/layouts/v20/past-records.js";
import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { writeValue } from "../../prompts/layouts/v20/value-forms.js";
import { V20_DICTIONARY } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectionContext, PromptView } from "../inspection-context.js";
import { drawnLines, type KeyedLine, sourcePaths } from "./drawn-lines.js";

/** A past record's twelve fields, in the order the v20 dictionary draws them. */
const RECORD_FIELDS: readonly string[] = V20_DICTIONARY.pastRecords.fields;

/** True when a redacted path covers `path` (the same path, or a past record's field under `pastRecords.`). */
export function isRedacted(redacted: ReadonlySet<string>, paths: readonly string[]): boolean {
  return paths.some((p) => redacted.has(p));
}

function checkEntry(
  input: PromptInput,
  redacted: ReadonlySet<string>,
  drawn: KeyedLine,
  view: PromptView,
  out: CheckFindings,
): void {
  const entry = drawn.entry!;
  const at = { location: view.at(drawn.line.line), key: entry.key, factId: drawn.line.factId };
  if (isRedacted(redacted, sourcePaths(entry.source))) {
    out.unverifiable(
      "REDACTED",
      `${entry.key} was masked before the model saw it: its true value was not sealed`,
      at,
    );
    return;
  }
  const fact = factValue(input, entry.source);
  if (!("value" in fact)) {
    out.unverifiable(
      "SOURCE_NOT_SEALED",
      `the sealed context holds no ${entry.source} to check "${drawn.line.value}" against`,
      at,
    );
    return;
  }
  const written = writeValue(entry.form, fact.value);
  if (written !== drawn.line.value)
    out.mismatch(
      "VALUE_DIFFERS",
      `${entry.key} reads "${drawn.line.value}", its source ${entry.source} says "${written}"`,
      at,
    );
}

function checkRecord(
  input: PromptInput,
  redacted: ReadonlySet<string>,
  drawn: KeyedLine,
  view: PromptView,
  out: CheckFindings,
): void {
  const fields = drawn.line.value!.split(" | ");
  const at = { location: view.at(drawn.line.line), key: drawn.key, factId: drawn.line.factId };
  if ([...redacted].some((p) => p.startsWith("pastRecords."))) {
    out.unverifiable(
      "REDACTED",
      "past records' subjects, targets or networks were masked before the model saw them",
      at,
    );
    return;
  }
  const record = input.pastRecords.find((r) => r.id === fields[0]);
  if (record === undefined) {
    out.unverifiable("SOURCE_NOT_SEALED", `the sealed context holds no past record ${fields[0]}`, at);
    return;
  }
  const source = pastRecordFields(record).split(" | ");
  const differs = RECORD_FIELDS.filter((_, i) => source[i] !== fields[i]);
  if (differs.length)
    out.mismatch(
      "VALUE_DIFFERS",
      `record ${record.id}: ${differs.map((f) => `${f} reads "${fields[RECORD_FIELDS.indexOf(f)] ?? ""}", its source says "${source[RECORD_FIELDS.indexOf(f)]}"`).join("; ")}`,
      at,
    );
}

/**
 * FACT_ACCURACY: each drawn line against its sealed source, field by field (REQUEST: subject,
 * time, roles, permissions, action, target, size, class, network, device; and every other entry
 * and past record). A line whose source was not sealed is UNVERIFIABLE (SOURCE_NOT_SEALED); one
 * whose source was masked for the model is UNVERIFIABLE (REDACTED), never a MISMATCH.
 */
export function factAccuracy(ctx: InspectionContext, dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("FACT_ACCURACY");
  for (const view of ctx.prompts)
    for (const drawn of drawnLines(view, dictionary)) {
      out.count();
      if (drawn.entry) checkEntry(ctx.pkg.input, ctx.redacted, drawn, view, out);
      else checkRecord(ctx.pkg.input, ctx.redacted, drawn, view, out);
    }
  return out;
}
