import type { Dictionary, DictionaryBlock } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { PromptView } from "../inspection-context.js";
import { PAST_RECORDS_BLOCK, type PromptLine } from "../prompt-lines.js";
import { isInForm } from "./value-forms.js";

const UNKNOWN_ITEM = /^[a-z]+\.[a-z-]+ \((NOT_PROVIDED|UNAVAILABLE|NOT_DERIVABLE|UNCLASSIFIED)\)$/;

function checkText(view: PromptView, out: CheckFindings): void {
  const user = view.prompt.user;
  out.count(2);
  const cr = view.lines.find((l) => l.text.includes("\r"));
  if (cr)
    out.mismatch("CARRIAGE_RETURN", "a line ends in or holds a carriage return", {
      location: view.at(cr.line),
    });
  if (!user.endsWith("\n") || user.endsWith("\n\n"))
    out.mismatch("TEXT_END", "the text does not end with exactly one line feed", {
      location: view.at(view.lines.length),
    });
}

function checkLayout(view: PromptView, dictionary: Dictionary, out: CheckFindings): void {
  const expected = [...dictionary.blocks.map((b) => b.name), PAST_RECORDS_BLOCK];
  const headers = view.lines.filter((l) => l.kind === "header");
  out.count(headers.length);
  const wrong = headers.find((h, i) => h.block !== expected[i]);
  if (wrong)
    out.mismatch(
      "BLOCK_ORDER",
      `block [${wrong.block}] stands where [${expected[headers.indexOf(wrong)] ?? "nothing"}] belongs`,
      { location: view.at(wrong.line) },
    );
  else if (headers.length !== expected.length)
    out.mismatch("BLOCK_MISSING", `the prompt has ${headers.length} of the ${expected.length} blocks`, {
      location: view.at(),
    });
  view.lines.forEach((l, i) => {
    const before = view.lines[i - 1];
    const after = view.lines[i + 1];
    const separates =
      l.kind === "blank" &&
      before !== undefined &&
      before.kind !== "blank" &&
      (after?.kind === "header" || after?.kind === "unknown");
    if (l.kind === "blank" && !separates)
      out.mismatch("EMPTY_LINE", "an empty line that separates no blocks", { location: view.at(l.line) });
    if ((l.kind === "header" || l.kind === "unknown") && i > 0 && before?.kind !== "blank")
      out.mismatch("BLOCK_SEPARATION", "a block does not follow one empty line", {
        location: view.at(l.line),
      });
  });
  const unknown = view.lines.filter((l) => l.kind === "unknown");
  out.count();
  const last = view.lines.at(-1);
  if (unknown.length !== 1 || last?.kind !== "unknown")
    out.mismatch("UNKNOWN_LINE_PLACE", "the text does not end with exactly one UNKNOWN line", {
      location: view.at(last?.line),
    });
  for (const u of unknown)
    if (u.value !== "none" && !u.value!.split("; ").every((item) => UNKNOWN_ITEM.test(item)))
      out.mismatch(
        "UNKNOWN_LINE_FORM",
        "the UNKNOWN line is not `none` or `<key> (<KIND>)` items joined by `; `",
        { location: view.at(u.line) },
      );
}

function checkEntryLine(
  view: PromptView,
  block: DictionaryBlock,
  line: PromptLine,
  state: { n: number; last: number },
  out: CheckFindings,
): void {
  out.count();
  const at = { location: view.at(line.line) };
  if (line.kind !== "fact" && line.kind !== "missing") {
    out.mismatch("FOREIGN_LINE", `a line that is no entry line stands in [${block.name}]`, at);
    return;
  }
  state.n++;
  if (line.number !== state.n)
    out.mismatch("NUMBERING", `line number ${line.number} where ${state.n} belongs`, at);
  if (state.n > block.cap)
    out.mismatch("CAP_EXCEEDED", `[${block.name}] carries more than its cap of ${block.cap} lines`, at);
  const index = block.entries.findIndex((e) => e.name === line.name);
  const entry = block.entries[index];
  if (entry === undefined) {
    out.mismatch("ENTRY_NOT_IN_BLOCK", `"${line.name}" is no entry of [${block.name}]`, at);
    return;
  }
  if (index <= state.last)
    out.mismatch("ENTRY_ORDER", `"${line.name}" stands out of its block's entry order`, {
      ...at,
      key: entry.key,
    });
  state.last = index;
  if (line.kind === "fact" && !isInForm(entry.form, line.value!))
    out.mismatch("VALUE_FORM", `"${line.value}" is not written in the ${entry.form} form`, {
      ...at,
      key: entry.key,
      factId: line.factId,
    });
  if (line.kind === "missing" && line.value !== entry.missingText)
    out.mismatch(
      "MISSING_TEXT",
      `a missing ${entry.name} must say "${entry.missingText}", not "${line.value}"`,
      { ...at, key: entry.key },
    );
}

function checkBlocks(view: PromptView, dictionary: Dictionary, out: CheckFindings): void {
  let block: DictionaryBlock | undefined;
  let state = { n: 0, last: -1 };
  let records = 0;
  for (const line of view.lines) {
    if (line.kind === "header") {
      block = dictionary.blocks.find((b) => b.name === line.block);
      state = { n: 0, last: -1 };
      continue;
    }
    if (line.kind === "blank" || line.kind === "unknown") continue;
    if (block) checkEntryLine(view, block, line, state, out);
    else if (line.block === PAST_RECORDS_BLOCK && line.kind === "record") {
      records++;
      if (line.number !== records)
        out.mismatch("NUMBERING", `record number ${line.number} where ${records} belongs`, {
          location: view.at(line.line),
        });
      if (records > dictionary.pastRecords.cap)
        out.mismatch("CAP_EXCEEDED", `more than ${dictionary.pastRecords.cap} past records`, {
          location: view.at(line.line),
        });
    } else if (line.kind !== "state" || line.block !== PAST_RECORDS_BLOCK)
      out.mismatch("FOREIGN_LINE", "a line the dictionary does not write", { location: view.at(line.line) });
  }
}

function checkFactIds(view: PromptView, out: CheckFindings): void {
  const drawn = view.lines.filter((l) => l.factId !== undefined);
  out.count(drawn.length);
  const wrong = drawn.find((l, i) => l.factId !== `F${i + 1}`);
  if (wrong)
    out.mismatch(
      "FACT_ID_ORDER",
      `fact ID ${wrong.factId} where F${drawn.indexOf(wrong) + 1} belongs (IDs count drawn facts in order)`,
      { location: view.at(wrong.line), factId: wrong.factId },
    );
}

/**
 * DICTIONARY_CONTRACT: line feeds only and one at the end; the block headers in dictionary order,
 * one empty line between blocks; in each block only its entry lines, in entry order, numbered from 1
 * up to the cap, each value in its entry's form or the entry's missing text; fact IDs in drawn
 * order; one well-formed UNKNOWN line last (docs/prompt-v20-dictionary.md).
 */
export function dictionaryContract(prompts: readonly PromptView[], dictionary: Dictionary): CheckFindings {
  const out = new CheckFindings("DICTIONARY_CONTRACT");
  for (const view of prompts) {
    checkText(view, out);
    checkLayout(view, dictionary, out);
    checkBlocks(view, dictionary, out);
    checkFactIds(view, out);
  }
  return out;
}
