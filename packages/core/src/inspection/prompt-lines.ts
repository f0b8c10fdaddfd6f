/** What a line of a v20 user prompt is, read by the contract's grammar alone. */
export type PromptLineKind =
  | "header"
  | "fact"
  | "missing"
  | "state"
  | "record"
  | "unknown"
  | "blank"
  | "other";

/** One line of a v20 user prompt, with its 1-based number and what it says. */
export interface PromptLine {
  /** 1-based line number in the user prompt. */
  readonly line: number;
  readonly text: string;
  readonly kind: PromptLineKind;
  /** The block the line stands in (`REQUEST`, `PAST RECORDS`); the header's own name for a header. */
  readonly block: string | undefined;
  /** `n` of a numbered line. */
  readonly number: number | undefined;
  /** The entry name of a fact or missing line. */
  readonly name: string | undefined;
  /** The value of a fact line, the missing text of a missing line, the fields of a record line. */
  readonly value: string | undefined;
  /** The fact ID a fact or record line ends with. */
  readonly factId: string | undefined;
}

const FACT_ID = /^F[1-9]\d*$|^F0$/;
const PAST_RECORDS = "PAST RECORDS";

/** `n. rest` → [n, rest], or undefined when the line does not open with a number, a dot and a space. */
function numbered(text: string): [number, string] | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  if (i === 0 || text[i] !== "." || text[i + 1] !== " ") return undefined;
  return [Number(text.slice(0, i)), text.slice(i + 2)];
}

/** `body {F<k>}` → [body, F<k>], or undefined when the text does not end with a fact ID. */
function withFactId(text: string): [string, string] | undefined {
  if (!text.endsWith("}")) return undefined;
  const open = text.lastIndexOf(" {");
  const id = open < 0 ? "" : text.slice(open + 2, -1);
  return FACT_ID.test(id) ? [text.slice(0, open), id] : undefined;
}

/** One line object of one shape (every field set, undefined where absent): the checks read thousands. */
function lineOf(
  line: number,
  text: string,
  kind: PromptLineKind,
  block: string | undefined,
  extra: { number?: number; name?: string; value?: string; factId?: string } = {},
): PromptLine {
  return {
    line,
    text,
    kind,
    block,
    number: extra.number,
    name: extra.name,
    value: extra.value,
    factId: extra.factId,
  };
}

function readNumbered(
  line: number,
  text: string,
  block: string | undefined,
  n: number,
  rest: string,
): PromptLine {
  const drawn = withFactId(rest);
  if (block === PAST_RECORDS)
    return drawn
      ? lineOf(line, text, "record", block, { number: n, value: drawn[0], factId: drawn[1] })
      : lineOf(line, text, "other", block);
  const body = drawn ? drawn[0] : rest;
  const colon = body.indexOf(": ");
  if (colon <= 0) return lineOf(line, text, "other", block);
  const entry = { number: n, name: body.slice(0, colon), value: body.slice(colon + 2) };
  return drawn
    ? lineOf(line, text, "fact", block, { ...entry, factId: drawn[1] })
    : lineOf(line, text, "missing", block, entry);
}

function readLine(text: string, line: number, block: string | undefined): PromptLine {
  if (text === "") return lineOf(line, text, "blank", block);
  if (text.startsWith("[") && text.endsWith("]") && text.length > 2)
    return lineOf(line, text, "header", text.slice(1, -1));
  if (text.startsWith("UNKNOWN: ")) return lineOf(line, text, "unknown", block, { value: text.slice(9) });
  if (block === PAST_RECORDS && text.startsWith("state: "))
    return lineOf(line, text, "state", block, { value: text.slice(7) });
  const n = numbered(text);
  return n ? readNumbered(line, text, block, n[0], n[1]) : lineOf(line, text, "other", block);
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
