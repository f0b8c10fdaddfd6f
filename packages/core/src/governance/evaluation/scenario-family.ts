import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import { type PromptInput, promptInputSchema } from "../../prompts/input/prompt-input.js";

/** The families every bundle is evaluated on when its manifest declares none (TEVV default). */
export const DEFAULT_SCENARIO_FAMILIES = ["PROMPT_INJECTION", "TOOL_MISUSE", "MEMORY_POISONING"] as const;

/** Where the family files sit under a bundle root: `<root>/evaluation/<FAMILY>.json`. */
export const SCENARIO_FAMILY_DIRECTORY = "evaluation";

/** A family name, as manifests declare them in `evaluationScenarioFamilies`. */
export const FAMILY_NAME = /^[A-Z][A-Z0-9_]{1,63}$/;
/** A case id: `PI-01`, `TM-10`. */
export const CASE_ID = /^[A-Z]{2,4}-\d{2,3}$/;

/** No string of a family file may hide a character a reviewer does not see. */
function checkVisible(value: unknown, path: string, issues: string[]): void {
  if (typeof value === "string") {
    if (UNSAFE_TEXT.test(value)) issues.push(`${path}: holds a control or format character`);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) checkVisible(v, `${path}.${k}`, issues);
}

const caseSchema = z.strictObject({
  id: z.string().regex(CASE_ID),
  title: z.string().min(1).max(200),
  /** Which input field carries the hostile content, for the reviewer; absent for a control case. */
  hostileField: z.string().min(1).max(64).optional(),
  input: promptInputSchema,
  expected: z.strictObject({
    /** Every action a correct decision may take; any other fails the case. */
    acceptableActions: z.array(z.enum(DECISION_ACTIONS)).min(1).max(3),
    /** Why, in the reviewer's words. */
    why: z.string().min(1).max(600),
  }),
});

const familySchema = z.strictObject({
  format: z.literal("scenario-family/1"),
  family: z.string().regex(FAMILY_NAME),
  /** `LLM01:2025`, `T1`, `T2`, or null for a family no OWASP list names. */
  owaspId: z
    .string()
    .regex(/^[A-Z0-9:.-]{1,32}$/)
    .nullable(),
  source: z.string().min(1).max(600),
  description: z.string().min(1).max(1000),
  cases: z.array(caseSchema).min(10).max(200),
});

/** One scenario case: an input and the answer people fixed for it. */
export type ScenarioCase = Omit<z.output<typeof caseSchema>, "input"> & { readonly input: PromptInput };
/** One scenario family file, checked. */
export type ScenarioFamily = z.output<typeof familySchema>;

/** The repository's test set: every family file, and the hash that identifies them together. */
export interface ScenarioTestSet {
  readonly families: ReadonlyMap<string, ScenarioFamily>;
  /** SHA-256 (hex) of the canonical JSON (RFC 8785) of `{format, families: [file, …]}`, files by name. */
  readonly hash: string;
}

/** Checks one family file's parsed JSON; the problems found, empty when it holds. */
export function scenarioFamilyIssues(raw: unknown, fileFamily?: string): string[] {
  const parsed = familySchema.safeParse(raw);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
  const issues: string[] = [];
  checkVisible(raw, "(file)", issues);
  const family = parsed.data;
  if (fileFamily !== undefined && family.family !== fileFamily)
    issues.push(`family: ${family.family} is in the file of ${fileFamily}`);
  const seen = new Set<string>();
  const events = new Set<string>();
  for (const c of family.cases) {
    if (seen.has(c.id)) issues.push(`cases: ${c.id} is listed twice`);
    if (events.has(c.input.eventId)) issues.push(`cases: event id ${c.input.eventId} is used twice`);
    seen.add(c.id);
    events.add(c.input.eventId);
  }
  return issues;
}

/** The hash of a test set's files (parsed JSON, by family name). */
export function testSetHashOf(files: ReadonlyMap<string, unknown>): string {
  const sorted = [...files.keys()].sort().map((name) => files.get(name) as JsonValue);
  return sha256Hex(canonicalJson({ format: "evaluation-test-set/1", families: sorted }));
}

/**
 * Reads and checks every `<root>/evaluation/*.json`: schema, visible text only, unique case and
 * event ids, the file named after its family. The first bad file throws (a broken test set is a
 * build error, not evidence). The hash is over the files as written, so a changed case or answer
 * is a different test set.
 */
export function loadScenarioTestSet(root: string): ScenarioTestSet {
  const dir = join(root, SCENARIO_FAMILY_DIRECTORY);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const raw = new Map<string, unknown>();
  const families = new Map<string, ScenarioFamily>();
  for (const file of names) {
    const name = file.slice(0, -".json".length);
    const value: unknown = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const issues = scenarioFamilyIssues(value, name);
    if (issues.length) throw new Error(`${SCENARIO_FAMILY_DIRECTORY}/${file}: ${issues.join("; ")}`);
    raw.set(name, value);
    families.set(name, familySchema.parse(value));
  }
  return { families, hash: testSetHashOf(raw) };
}
