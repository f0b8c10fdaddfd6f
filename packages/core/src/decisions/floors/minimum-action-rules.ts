import { z } from "zod";
import { PlatformError } from "../../kernel/platform-error.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import { factValue } from "../../prompts/layouts/v20/fact-values.js";
import type { Dictionary, DictionaryEntry } from "../../prompts/layouts/v20/v20-dictionary.js";
import { writeValue } from "../../prompts/layouts/v20/value-forms.js";
import type { DecisionAction } from "../engine/decision-record.js";

const action = z.enum(DECISION_ACTIONS);
const rulesSchema = z.strictObject({
  version: z.literal("minimum-action-rules/1"),
  defaults: z.strictObject({ enabled: z.boolean(), onInspectorFailure: action }),
  rules: z.array(
    z.strictObject({
      id: z.string().min(1),
      when: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
      atLeast: action,
    }),
  ),
});

/** Element B5 as this pipeline reads it (`minimum-action-rules/1`). */
export type MinimumActionRules = z.output<typeof rulesSchema>;

/** The floor that raised an action: which rule, to what, from what the layer decided. */
export interface AppliedFloor {
  readonly rule: string;
  readonly atLeast: DecisionAction;
  readonly raisedFrom: DecisionAction;
}

/** How an outcome names the floor that raised it: `<rule> raised <from> to <atLeast>`. */
export function describeFloor(floor: AppliedFloor): string {
  return `${floor.rule} raised ${floor.raisedFrom} to ${floor.atLeast}`;
}

const rank = (a: DecisionAction) => DECISION_ACTIONS.indexOf(a);
const cache = new WeakMap<BundleDefinition, MinimumActionRules | null>();

/**
 * The minimum action rules of `bundle` (element B5), or null when it has none (v19 marks B5
 * ABSENT); DECISION_BUNDLE_UNSUPPORTED for a version or shape this pipeline does not read.
 */
export function minimumActionRulesOf(bundle: BundleDefinition): MinimumActionRules | null {
  const known = cache.get(bundle);
  if (known !== undefined) return known;
  let rules: MinimumActionRules | null = null;
  if (bundle.minimumActionRules !== undefined) {
    const parsed = rulesSchema.safeParse(bundle.minimumActionRules);
    const issues = parsed.success
      ? unknownKeys(parsed.data, bundle)
      : parsed.error.issues.map((i) => `${i.path.join(".") || "(B5)"}: ${i.message}`);
    if (!parsed.success || issues.length)
      throw new PlatformError(
        "DECISION_BUNDLE_UNSUPPORTED",
        `Bundle ${bundle.descriptor.promptVersion}: its minimum action rules (B5) are not ones this pipeline reads`,
        { details: { version: bundle.descriptor.promptVersion, element: "B5", issues } },
      );
    rules = parsed.data;
  }
  cache.set(bundle, rules);
  return rules;
}

function entriesOf(bundle: BundleDefinition): Map<string, DictionaryEntry> {
  const dictionary = bundle.dictionary as unknown as Dictionary | undefined;
  return new Map((dictionary?.blocks ?? []).flatMap((b) => b.entries.map((e) => [e.key, e] as const)));
}

/** Condition keys that name no dictionary entry: a rule over them could never hold, so the bundle is refused. */
function unknownKeys(rules: MinimumActionRules, bundle: BundleDefinition): string[] {
  const entries = entriesOf(bundle);
  return rules.rules.flatMap((r) =>
    Object.entries(r.when).flatMap(([key, value]) => {
      const keys = key === "unknownAnyOf" && Array.isArray(value) ? value : [key];
      const bad = keys.filter((k) => !entries.has(k));
      if (key !== "unknownAnyOf" && Array.isArray(value)) bad.push(key);
      return bad.map((k) => `${r.id}: ${k} is no dictionary key`);
    }),
  );
}

/** The fact's value as the dictionary writes it (a network as its term), or undefined when it is unknown. */
function written(entry: DictionaryEntry, context: PromptInput): string | undefined {
  const fact = factValue(context, entry.source);
  if (!("value" in fact)) return undefined;
  return entry.form === "network"
    ? (fact.value as { term: string }).term
    : writeValue(entry.form, fact.value);
}

function holds(
  when: Record<string, string | string[]>,
  entries: Map<string, DictionaryEntry>,
  context: PromptInput,
) {
  return Object.entries(when).every(([key, expected]) => {
    if (Array.isArray(expected)) return expected.some((k) => written(entries.get(k)!, context) === undefined);
    const value = written(entries.get(key)!, context);
    return value !== undefined && value === expected;
  });
}

/**
 * Raises `decided` to the highest floor among the bundle's minimum action rules that hold on the
 * context (the first rule listed among equal floors), never lowering it. Conditions read the
 * dictionary's keys: an equality holds only on a known value as the dictionary writes it, and a
 * fact that is unknown never satisfies one; `unknownAnyOf` holds when any named fact is unknown.
 */
export function applyFloors(
  decided: DecisionAction,
  bundle: BundleDefinition,
  context: PromptInput,
): { action: DecisionAction; floor?: AppliedFloor } {
  const rules = minimumActionRulesOf(bundle);
  if (!rules?.defaults.enabled) return { action: decided };
  const entries = entriesOf(bundle);
  let top: { id: string; atLeast: DecisionAction } | undefined;
  for (const rule of rules.rules) {
    if (!holds(rule.when, entries, context)) continue;
    if (!top || rank(rule.atLeast) > rank(top.atLeast)) top = rule;
  }
  if (!top || rank(top.atLeast) <= rank(decided)) return { action: decided };
  return { action: top.atLeast, floor: { rule: top.id, atLeast: top.atLeast, raisedFrom: decided } };
}
