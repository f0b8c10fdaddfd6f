/** What a line of a v20 user prompt is, read by the contract's grammar alone. */
export type PromptLineKind = "header" | "fact" | "missing" | "state" | "record" | "unknown" | "blank" | "other";

/** One line of a v20 user prompt, with its 1-based number and what it says. */
export interface PromptLine {
  /** 1-based line number in the user prompt. */
  readonly line: number;
  readonly text: string;
  readonly kind: PromptLineKind;
  /** The block the line stands in (`REQUEST`, `PAST RECORDS`); the header's own name for a header. */
  readonly block?: string;
  /** `n` of a numbered line. */
  readonly number?: number;
  /** The entry name of a fact or missing line. */
  readonly name?: string;
  /** The value of a fact line, the missing text of a missing line, the fields of a record line. */
  readonly value?: string;
  /** The fact ID a fact or record line ends with. */
  readonly factId?: string;
}

const HEADER = /^\[(.+)\]$/;
const FACT = /^(\d+)\. ([^:]+): (.*) \{(F\d+)\}$/;
const MISSING = /^(\d+)\. ([^:]+): (.*)$/;
const RECORD = /^(\d+)\. (.*) \{(F\d+)\}$/;
const STATE = /^state: /;
const PAST_RECORDS = "PAST RECORDS";

function readLine(text: string, line: number, block: string | undefined): PromptLine {
  const at = { line, text, ...(block === undefined ? {} : { block }) };
  if (text === "") return { ...at, kind: "blank" };
  const header = HEADER.exec(text);
  if (header) return { line, text, kind: "header", block: header[1]! };
  if (text.startsWith("UNKNOWN: ")) return { ...at, kind: "unknown", value: text.slice(9) };
  if (block === PAST_RECORDS) {
    if (STATE.test(text)) return { ...at, kind: "state", value: text.slice(7) };
    const record = RECORD.exec(text);
    if (record) return { ...at, kind: "record", number: Number(record[1]), value: record[2]!, factId: record[3]! };
    return { ...at, kind: "other" };
  }
  const fact = FACT.exec(text);
  if (fact)
    return { ...at, kind: "fact", number: Number(fact[1]), name: fact[2]!, value: fact[3]!, factId: fact[4]! };
  const missing = MISSING.exec(text);
  if (missing) return { ...at, kind: "missing", number: Number(missing[1]), name: missing[2]!, value: missing[3]! };
  return { ...at, kind: "other" };
}

/**
 * Reads a user prompt line by line (split on line feeds only, so a stray `\r` stays in its line and
 * the contract check sees it). The text's final line feed ends the last line; it opens no line.
 */
export function readPromptLines(user: string): PromptLine[] {
  const texts = user.split("\n");
  if (user.endsWith("\n")) texts.pop();
  let block: string | undefined;
  return texts.map((text, i) => {
    const read = readLine(text, i + 1, block);
    if (read.kind === "header") block = read.block;
    return read;
  });
}

/** The block name of PAST RECORDS lines. */
export const PAST_RECORDS_BLOCK = PAST_RECORDS;
