import type { Dictionary, DictionaryEntry } from "../../prompts/layouts/v20/v20-dictionary.js";
import type { PromptView } from "../inspection-context.js";
import type { PromptLine } from "../prompt-lines.js";

/** A line that draws or misses a fact, with the fact's key (`request.subject`, `past-record:<id>`). */
export interface KeyedLine {
  readonly key: string;
  readonly line: PromptLine;
  /** The dictionary entry of a fact or missing line; undefined for a past record. */
  readonly entry?: DictionaryEntry;
}

/** The dictionary entry a fact or missing line stands for, by its block and name. */
export function entryOfLine(dictionary: Dictionary, line: PromptLine): DictionaryEntry | undefined {
  return dictionary.blocks.find((b) => b.name === line.block)?.entries.find((e) => e.name === line.name);
}

/** The key of a past record line: `past-record:` and its first field. */
export const recordKey = (line: PromptLine): string => `past-record:${line.value!.split(" | ", 1)[0]}`;

const drawnCache = new WeakMap<PromptView, KeyedLine[]>();

/** Every line of `view` that draws a fact (with an ID), keyed; lines the dictionary cannot place are left out. */
export function drawnLines(view: PromptView, dictionary: Dictionary): readonly KeyedLine[] {
  let drawn = drawnCache.get(view);
  if (drawn === undefined) {
    drawn = keyDrawnLines(view, dictionary);
    drawnCache.set(view, drawn);
  }
  return drawn;
}

function keyDrawnLines(view: PromptView, dictionary: Dictionary): KeyedLine[] {
  return view.lines.flatMap((line): KeyedLine[] => {
    if (line.kind === "record") return [{ key: recordKey(line), line }];
    if (line.kind !== "fact") return [];
    const entry = entryOfLine(dictionary, line);
    return entry ? [{ key: entry.key, line, entry }] : [];
  });
}

/** Every missing line (no fact ID) of `view` the dictionary can place, keyed. */
export function missingLines(view: PromptView, dictionary: Dictionary): KeyedLine[] {
  return view.lines.flatMap((line): KeyedLine[] => {
    if (line.kind !== "missing") return [];
    const entry = entryOfLine(dictionary, line);
    return entry ? [{ key: entry.key, line, entry }] : [];
  });
}

/** The items of an UNKNOWN line: `<key> (<KIND>)` joined by `; `, or none. */
export function unknownItems(view: PromptView): {
  line: PromptLine | undefined;
  items: { key: string; kind: string }[];
} {
  const line = view.lines.find((l) => l.kind === "unknown");
  if (!line || line.value === "none") return { line, items: [] };
  // Read with lastIndexOf, not a backtracking pattern: the line is as long as a hostile prompt makes it.
  const items = line.value!.split("; ").map((item) => {
    const open = item.lastIndexOf(" (");
    const kind = open < 0 || !item.endsWith(")") ? "" : item.slice(open + 2, -1);
    return /^[A-Z_]+$/.test(kind) ? { key: item.slice(0, open), kind } : { key: item, kind: "" };
  });
  return { line, items };
}

/** The input paths a dictionary source reads: its own path, or a classifier's inputs. */
export function sourcePaths(source: string): string[] {
  switch (source) {
    case "vocabulary:action":
      return ["request.method", "request.target"];
    case "vocabulary:resource-class":
      return ["request.target"];
    case "vocabulary:network":
      return ["request.network"];
    default:
      return [source];
  }
}
