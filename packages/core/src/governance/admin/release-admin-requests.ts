import { z } from "zod";
import { UNSAFE_MULTILINE_TEXT, UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import { invalid, parseWith, wholeNumber } from "../../policy-center/console-input.js";
import { SUBMITTABLE_EVIDENCE_KINDS } from "../evidence/release-evidence-ledger.js";
import { MAX_RELEASE_HISTORY_LIMIT } from "../registry/release-registry.js";
import { RELEASE_STATES, releaseStateOf } from "../registry/release-state.js";
import { MAX_CANARY_TARGET_LENGTH, MAX_CANARY_TARGETS } from "../transitions/canary-share.js";

/** Longest scope, prompt key or version the release API reads. */
export const MAX_RELEASE_NAME_LENGTH = 128;
/** Longest rationale or reason the release API records. */
export const MAX_RELEASE_RATIONALE_LENGTH = 2_000;

// Scopes, prompt keys and versions as the manifests and registry write them (`cortex.security-decision`,
// `2026.09.15-v20`, `PLATFORM_GLOBAL`): a letter or digit, then letters, digits, `.`, `_`, `:`, `-`.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** A scope, prompt key or version: 1 to 128 name characters. */
export const releaseName = z
  .string()
  .min(1)
  .max(MAX_RELEASE_NAME_LENGTH)
  .regex(NAME, "must be letters, digits, '.', '_', ':' or '-'");

/** A scope: a name, or blank (PLATFORM_GLOBAL). */
const scope = z.union([z.literal(""), releaseName]).optional();

/** Free text recorded with a change: not blank, bounded, no control or format characters but line breaks. */
const rationale = z
  .string()
  .max(MAX_RELEASE_RATIONALE_LENGTH)
  .refine((s) => s.trim().length > 0, "must not be blank")
  .refine((s) => !UNSAFE_MULTILINE_TEXT.test(s), "must not hold control or format characters");

/** A state name: canonical or older (DRAFT, EVAL_ONLY, PRODUCTION, ROLLED_BACK), upper case. */
const stateName = z
  .string()
  .max(32)
  .refine((s) => releaseStateOf(s) !== undefined, {
    message: `must be one of ${RELEASE_STATES.join(", ")} (or DRAFT, EVAL_ONLY, PRODUCTION, ROLLED_BACK)`,
  });

/** A canary's tenants or resource families: at most 100 bounded strings (the service checks each further). */
const canaryTargets = z
  .array(z.string().max(MAX_CANARY_TARGET_LENGTH))
  .max(MAX_CANARY_TARGETS, `must list at most ${MAX_CANARY_TARGETS} entries`);

const CANARY_FIELDS = ["canaryPercent", "canaryTenants", "canaryResourceFamilies"] as const;

/**
 * `POST …/releases/transition`: the spec's fields, and to CANARY only its share (a whole percent 0
 * to 100) and targets; nothing else. Each name and family is checked further by the service
 * (requestedCanaryShare), which refuses the same on any caller.
 */
export const TransitionBody = z
  .strictObject({
    registryScope: scope,
    promptKey: releaseName,
    promptVersion: releaseName,
    targetReleaseStatus: stateName,
    rationale,
    canaryPercent: z.number().int("must be a whole number").min(0).max(100).optional(),
    canaryTenants: canaryTargets.optional(),
    canaryResourceFamilies: canaryTargets.optional(),
  })
  .superRefine((body, ctx) => {
    if (releaseStateOf(body.targetReleaseStatus) === "CANARY") return;
    const named = CANARY_FIELDS.find((f) => body[f] !== undefined);
    if (named !== undefined)
      ctx.addIssue({ code: "custom", path: [named], message: "is taken only by a transition to CANARY" });
  });

/** `POST …/releases/rollback` (the spec's fields, nothing else). */
export const RollbackBody = z.strictObject({
  registryScope: scope,
  promptKey: releaseName,
  fromVersion: releaseName,
  toVersion: releaseName,
  reason: rationale,
  emergency: z.boolean().optional(),
});

/** `POST …/rollback/{executionKey}/approve`: an optional body. */
export const ApprovalBody = z.strictObject({
  action: z.enum(["RATIFY", "REVERT"]).optional(),
  rationale: rationale.optional(),
});

/** Execution keys as the service writes them: `RBX-` and a suffix of name characters. */
export const EXECUTION_KEY = /^RBX-[A-Za-z0-9_-]{1,64}$/;

/** `POST …/prompt-quality/evidence`: the bundle it is bound to and the kind's content (checked by the intake). */
export const EvidenceBody = z.strictObject({
  kind: z.enum(SUBMITTABLE_EVIDENCE_KINDS),
  promptKey: releaseName,
  promptVersion: releaseName,
  bundleHash: z.string().regex(/^[0-9a-f]{64}$/, "must be the manifest's bundle hash (64 lower-case hex)"),
  content: z.record(z.string().max(MAX_RELEASE_NAME_LENGTH), z.unknown()),
});

/**
 * `?dryRun=` of the transition: `true` or `false`, once. Read with `blank: "refused"`: a blank or
 * any other value is VALIDATION_FAILED, never a real write.
 */
export const TransitionQuery = z.strictObject({ dryRun: z.enum(["true", "false"]).optional() });

/** `GET …/releases?registryScope=`. */
export const ReleasesQuery = z.strictObject({ registryScope: releaseName.optional() });

/** `GET …/releases/history`. */
export const HistoryQuery = z.strictObject({
  registryScope: releaseName.optional(),
  promptVersion: releaseName.optional(),
  limit: wholeNumber(1, MAX_RELEASE_HISTORY_LIMIT).optional(),
});

/** `GET …/prompt-quality/evidence`: the prompt key, optionally one version. */
export const EvidenceQuery = z.strictObject({
  promptKey: releaseName,
  promptVersion: releaseName.optional(),
});

/** How a query treats `name=`: as absent (the GET forms' blank fields), or judged by the schema as a value. */
export interface ReleaseQueryOptions {
  readonly blank?: "absent" | "refused";
}

/**
 * A query as one object: each parameter at most once, unknown ones refused (VALIDATION_FAILED
 * naming it), blank ones dropped (or, with `blank: "refused"`, judged as the empty value: the
 * transition's `dryRun` must not turn a blank into a real write), values judged by `schema` with
 * a single-line text check first.
 */
export function releaseQuery<T extends z.ZodObject>(
  schema: T,
  query: URLSearchParams,
  options: ReleaseQueryOptions = {},
): z.infer<T> {
  const known = Object.keys(schema.shape);
  const raw: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    if (!known.includes(key))
      throw invalid(key.slice(0, 64), `is not a parameter (takes ${known.join(", ")})`);
    const values = query.getAll(key);
    if (values.length > 1) throw invalid(key, "must be given at most once");
    // A GET form sends its blank fields as `name=`: blank is as absent, unless the caller refuses it.
    if (values[0] === "" && options.blank !== "refused") continue;
    if (UNSAFE_TEXT.test(values[0]!)) throw invalid(key, "must not hold control or format characters");
    raw[key] = values[0]!;
  }
  return parseWith(schema, raw);
}

/** A JSON body (already read as fields) judged by `schema`; the first issue is VALIDATION_FAILED. */
export function releaseBody<T extends z.ZodType>(schema: T, fields: unknown): z.infer<T> {
  return parseWith(schema, fields);
}
