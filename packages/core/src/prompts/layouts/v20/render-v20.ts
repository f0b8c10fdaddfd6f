import type { BudgetProfile } from "../../bundles/budget-profile.js";
import type { PastRecordInput, PromptInput } from "../../input/prompt-input.js";
import { countTokens } from "../../tokens/token-counter.js";
import { factValue, type UnknownKind } from "./fact-values.js";
import { orderPastRecords, pastRecordFields } from "./past-records.js";
import type { Dictionary, DictionaryEntry } from "./v20-dictionary.js";
import { writeValue } from "./value-forms.js";

/** A fact drawn with a value: its ID, its dictionary key (or `past-record:<id>`) and the value as written. */
export interface DrawnFact {
  readonly id: string;
  readonly key: string;
  readonly value: string;
}

/** A fact named on the UNKNOWN line. */
export interface UnknownFact {
  readonly key: string;
  readonly kind: UnknownKind;
}

/** What the v20 renderer produced besides the text: the drawn facts and the unknown ones. */
export interface V20UserRender {
  readonly user: string;
  readonly userTokens: number;
  /** Past record ids dropped to meet the budget, in the order they were dropped. */
  readonly omitted: string[];
  readonly overBudget: boolean;
  readonly facts: DrawnFact[];
  readonly unknown: UnknownFact[];
}

type Line = { entry: DictionaryEntry; value: string } | { entry: DictionaryEntry; missingText: string };

function entryLines(
  dictionary: Dictionary,
  input: PromptInput,
): { blocks: Line[][]; unknown: UnknownFact[] } {
  const unknown: UnknownFact[] = [];
  const blocks = dictionary.blocks.map((block) =>
    block.entries.flatMap((entry): Line[] => {
      const fact = factValue(input, entry.source);
      if ("value" in fact) return [{ entry, value: writeValue(entry.form, fact.value) }];
      const marked = input.markedMissing.includes(entry.key);
      if (entry.note === "OMIT_UNLESS_MARKED" && !marked) return [];
      unknown.push({ key: entry.key, kind: marked ? "UNAVAILABLE" : fact.missing });
      return entry.note === "UNKNOWN_ONLY" ? [] : [{ entry, missingText: entry.missingText }];
    }),
  );
  return { blocks, unknown };
}

function compose(
  dictionary: Dictionary,
  blocks: Line[][],
  records: { drawn: readonly PastRecordInput[]; found: number },
  unknown: readonly UnknownFact[],
): { text: string; facts: DrawnFact[] } {
  const facts: DrawnFact[] = [];
  const draw = (key: string, value: string) => {
    const id = `F${facts.length + 1}`;
    facts.push({ id, key, value });
    return ` {${id}}`;
  };
  const parts = dictionary.blocks.map((block, b) =>
    [
      `[${block.name}]`,
      ...blocks[b]!.map((line, n) =>
        "value" in line
          ? `${n + 1}. ${line.entry.name}: ${line.value}${draw(line.entry.key, line.value)}`
          : `${n + 1}. ${line.entry.name}: ${line.missingText}`,
      ),
    ].join("\n"),
  );
  const past = records.drawn.map((r, n) => {
    const fields = pastRecordFields(r);
    return `${n + 1}. ${fields}${draw(`past-record:${r.id}`, fields)}`;
  });
  parts.push(
    [
      `[${dictionary.pastRecords.name}]`,
      `state: ${records.drawn.length} drawn of ${records.found}`,
      ...past,
    ].join("\n"),
  );
  const unknownLine = unknown.length ? unknown.map((u) => `${u.key} (${u.kind})`).join("; ") : "none";
  return { text: `${parts.join("\n\n")}\n\nUNKNOWN: ${unknownLine}\n`, facts };
}

/**
 * Renders the v20 user prompt of `input` by `dictionary`: the blocks in order, PAST RECORDS, the
 * UNKNOWN line. Over the profile's user budget, past records are dropped from the end of their order
 * until it fits; nothing else is cut.
 */
export function renderV20User(
  input: PromptInput,
  profile: BudgetProfile,
  dictionary: Dictionary,
): V20UserRender {
  const { blocks, unknown } = entryLines(dictionary, input);
  const ordered = orderPastRecords(input.pastRecords, input.request.target);
  const drawn = ordered.slice(0, dictionary.pastRecords.cap);
  const omitted: string[] = [];
  for (;;) {
    const { text, facts } = compose(dictionary, blocks, { drawn, found: ordered.length }, unknown);
    // A token is at least one byte: a text of no more bytes than the budget fits, and its count is
    // made only if asked (the inspector re-renders every package and never asks).
    if (Buffer.byteLength(text, "utf8") <= profile.userTokens)
      return fittingRender({ user: text, omitted, facts, unknown });
    const userTokens = countTokens(text);
    if (userTokens <= profile.userTokens || drawn.length === 0)
      return { user: text, userTokens, omitted, overBudget: userTokens > profile.userTokens, facts, unknown };
    omitted.push(drawn.pop()!.id);
  }
}

/** A render known to fit its budget, its token count made on first read and kept. */
function fittingRender(r: Omit<V20UserRender, "userTokens" | "overBudget">): V20UserRender {
  let counted: number | undefined;
  return {
    ...r,
    overBudget: false,
    get userTokens(): number {
      counted ??= countTokens(r.user);
      return counted;
    },
  };
}
