import type { PromptInput } from "../../input/prompt-input.js";
import { classifyAction, classifyNetwork, classifyResource } from "../../vocabulary/vocabulary.js";

/** Why a fact could not be established (docs/prompt-v20-dictionary.md, "The UNKNOWN line"). */
export type UnknownKind = "NOT_PROVIDED" | "UNAVAILABLE" | "NOT_DERIVABLE" | "UNCLASSIFIED";

/** A fact's value, or why it has none. */
export type FactValue =
  | { readonly value: unknown }
  | { readonly missing: Exclude<UnknownKind, "UNAVAILABLE"> };

const fromInput = (value: unknown): FactValue =>
  value === undefined ? { missing: "NOT_PROVIDED" } : { value };

const derived = (source: unknown, term: string | undefined, value: unknown = term): FactValue => {
  if (source === undefined) return { missing: "NOT_DERIVABLE" };
  return term === undefined ? { missing: "UNCLASSIFIED" } : { value };
};

const CLASSIFIERS: Record<string, (input: PromptInput) => FactValue> = {
  "vocabulary:action": ({ request: r }) => derived(r.method ?? r.target, classifyAction(r.method, r.target)),
  "vocabulary:resource-class": ({ request: r }) => derived(r.target, classifyResource(r.target)),
  "vocabulary:network": ({ request: r }) => {
    const term = classifyNetwork(r.network);
    return derived(r.network, term, { term, address: r.network });
  },
};

/** The value of the fact at `source`: an input path (`request.subject`) or a classifier (`vocabulary:action`). */
export function factValue(input: PromptInput, source: string): FactValue {
  const classifier = CLASSIFIERS[source];
  if (classifier) return classifier(input);
  let node: unknown = input;
  for (const part of source.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return fromInput(node);
}
