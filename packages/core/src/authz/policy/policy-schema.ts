import { z } from "zod";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { UNSAFE_MULTILINE_TEXT, UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import { canonicalPathPattern } from "../../web/canonical-path.js";
import { compilePathPattern, MAX_PATH_PATTERN_LENGTH } from "../../web/path-pattern.js";
import {
  POLICY_EFFECTS,
  POLICY_HTTP_METHODS,
  POLICY_SOURCES,
  type PolicySource,
  TARGET_SOURCE_TYPES,
  TARGET_TYPES,
} from "./policy.js";

/** Limits of the policy schema (also the admin API's limits). */
export const POLICY_LIMITS = {
  nameMaxLength: 200,
  descriptionMaxLength: 2_000,
  priorityMin: -1_000_000,
  priorityMax: 1_000_000,
  maxTargets: 50,
  maxRules: 50,
  maxConditionsPerRule: 20,
  expressionMaxLength: 4_096,
  targetIdentifierMaxLength: MAX_PATH_PATTERN_LENGTH,
  aiModelMaxLength: 200,
} as const;

const JAVA_NAME = "[A-Za-z_$][\\w$]*";
const TYPE_NAME = `${JAVA_NAME}(?:\\.${JAVA_NAME})*(?:\\[\\])*`;
/**
 * `<Class>.<method>(<types>)` as the method scanner writes it: a (qualified) class, a method, and
 * comma-separated parameter types (simple or qualified, `[]` suffixes allowed, no generics).
 * Every quantified part is delimited by a character it cannot contain, so matching is linear.
 */
const METHOD_IDENTIFIER = new RegExp(
  `^${JAVA_NAME}(?:\\.${JAVA_NAME})*\\.${JAVA_NAME}\\((?:${TYPE_NAME}(?:, ?${TYPE_NAME})*)?\\)$`,
);

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(POLICY_LIMITS.nameMaxLength)
  .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control or format characters");

const targetInput = z
  .strictObject({
    targetType: z.enum(TARGET_TYPES),
    targetIdentifier: z.string().min(1).max(POLICY_LIMITS.targetIdentifierMaxLength),
    httpMethod: z.enum(POLICY_HTTP_METHODS).default("ANY"),
    targetOrder: z.int().min(0).max(1_000_000).optional(),
    sourceType: z.enum(TARGET_SOURCE_TYPES).default("MANUAL"),
  })
  .superRefine((t, ctx) => {
    // An over-long identifier was reported by its length check already.
    if (t.targetIdentifier.length > POLICY_LIMITS.targetIdentifierMaxLength) return;
    if (t.targetType === "URL") {
      try {
        compilePathPattern(t.targetIdentifier, "policy");
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          path: ["targetIdentifier"],
          message: isPlatformError(error) ? error.message : "is not a valid path pattern",
          // A refused `{var:regex}` says where and why (offset into the stored identifier).
          params: isPlatformError(error) ? problemAt(error.details) : undefined,
        });
      }
      return;
    }
    if (!METHOD_IDENTIFIER.test(t.targetIdentifier)) {
      ctx.addIssue({
        code: "custom",
        path: ["targetIdentifier"],
        message: "must look like <Class>.<method>(<parameter types>)",
      });
    }
    if (t.httpMethod !== "ANY") {
      ctx.addIssue({ code: "custom", path: ["httpMethod"], message: "must be ANY for a METHOD target" });
    }
  });

// targetOrder defaults to the target's index in the list. A URL target is stored in canonical form
// (`/api/orders/` as `/api/orders`), the form it matches in: what the admin reads back is what is judged.
const targets = z
  .array(targetInput)
  .min(1)
  .max(POLICY_LIMITS.maxTargets)
  .transform((list) =>
    list.map((t, i) => ({
      ...t,
      targetIdentifier:
        t.targetType === "URL" ? canonicalPathPattern(t.targetIdentifier) : t.targetIdentifier,
      targetOrder: t.targetOrder ?? i,
    })),
  );

const condition = z.strictObject({
  expression: z
    .string()
    .min(1)
    .max(POLICY_LIMITS.expressionMaxLength)
    .refine((s) => !UNSAFE_MULTILINE_TEXT.test(s), "must not contain control or format characters"),
});

const rule = z.strictObject({
  name,
  conditions: z.array(condition).min(1).max(POLICY_LIMITS.maxConditionsPerRule),
});

const rules = z.array(rule).max(POLICY_LIMITS.maxRules);
const description = z
  .string()
  .max(POLICY_LIMITS.descriptionMaxLength)
  .refine((s) => !UNSAFE_MULTILINE_TEXT.test(s), "must not contain control or format characters");
const priority = z.int().min(POLICY_LIMITS.priorityMin).max(POLICY_LIMITS.priorityMax);
const confidenceScore = z.number().min(0).max(1).nullable();
const aiModel = z
  .string()
  .trim()
  .min(1)
  .max(POLICY_LIMITS.aiModelMaxLength)
  .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control or format characters")
  .nullable();

/**
 * A new policy as an author submits it. `approvalStatus` is not accepted: the PAP derives it from
 * `source`. Defaults: description "", priority 0, rules [], source MANUAL, isActive true,
 * confidenceScore and aiModel null, httpMethod ANY, sourceType MANUAL, targetOrder = index.
 */
export const PolicyCreateSchema = z
  .strictObject({
    name,
    description: description.default(""),
    effect: z.enum(POLICY_EFFECTS),
    priority: priority.default(0),
    targets,
    rules: rules.default([]),
    source: z.enum(POLICY_SOURCES).default("MANUAL"),
    isActive: z.boolean().default(true),
    confidenceScore: confidenceScore.default(null),
    aiModel: aiModel.default(null),
  })
  .superRefine((p, ctx) => checkProvenance(p.source, p, ctx));

/**
 * Changes to a stored policy; absent fields are kept, at least one must be given. `source` and
 * `approvalStatus` are not accepted (provenance is fixed, approval has its own operations), nor is
 * `isActive` (activate / deactivate are audited operations of their own).
 */
export const PolicyUpdateSchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    effect: z.enum(POLICY_EFFECTS).optional(),
    priority: priority.optional(),
    targets: targets.optional(),
    rules: rules.optional(),
    confidenceScore: confidenceScore.optional(),
    aiModel: aiModel.optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, "must change at least one field");

/** A create request before defaults (what callers write). */
export type PolicyCreateInput = z.input<typeof PolicyCreateSchema>;
/** A validated create request, defaults applied. */
export type PolicyCreate = z.output<typeof PolicyCreateSchema>;
/** An update request before validation. */
export type PolicyUpdateInput = z.input<typeof PolicyUpdateSchema>;
/** A validated update request. */
export type PolicyUpdate = z.output<typeof PolicyUpdateSchema>;

/** One schema violation as clients see it: a dotted path (`targets.0.targetIdentifier`) and a message. */
export interface PolicyValidationIssue {
  path: string;
  message: string;
  /** 0-based offset of the problem in the field's text, when known (a refused `{var:regex}`). */
  position?: number;
  /** What is wrong at `position`. */
  reason?: string;
}

/** The `{ position, reason }` of a compile error's details, if it has both. */
function problemAt(
  details: Record<string, unknown> | undefined,
): { position: number; reason: string } | undefined {
  const position = details?.position;
  const reason = details?.reason;
  return typeof position === "number" && typeof reason === "string" ? { position, reason } : undefined;
}

/** Validates a create request; throws VALIDATION_FAILED with `details.issues`. */
export function parsePolicyCreate(input: unknown): PolicyCreate {
  return parseOrThrow(PolicyCreateSchema, input, "The policy is invalid");
}

/** Validates an update request; throws VALIDATION_FAILED with `details.issues`. */
export function parsePolicyUpdate(input: unknown): PolicyUpdate {
  return parseOrThrow(PolicyUpdateSchema, input, "The policy changes are invalid");
}

/**
 * Manual policies carry no AI provenance: confidenceScore and aiModel describe a generating model and
 * stay unset on MANUAL policies. Throws VALIDATION_FAILED when a MANUAL policy would carry either.
 */
export function assertProvenance(
  source: PolicySource,
  fields: { confidenceScore: number | null; aiModel: string | null },
): void {
  const issues: PolicyValidationIssue[] = [];
  checkProvenance(source, fields, {
    addIssue: (i) => issues.push({ path: i.path.join("."), message: i.message }),
  });
  if (issues.length > 0) throw validationFailed("The policy changes are invalid", issues);
}

interface IssueSink {
  addIssue(issue: { code: "custom"; path: string[]; message: string }): void;
}

function checkProvenance(
  source: PolicySource,
  fields: { confidenceScore: number | null; aiModel: string | null },
  ctx: IssueSink,
): void {
  if (source !== "MANUAL") return;
  for (const key of ["confidenceScore", "aiModel"] as const) {
    if (fields[key] !== null) {
      ctx.addIssue({ code: "custom", path: [key], message: "must be null for a MANUAL policy" });
    }
  }
}

// Issues echo client-chosen key names; a hostile body must not get a huge error answer back.
const MAX_ISSUES = 20;
const MAX_ISSUE_TEXT = 300;

function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, message: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(
    message,
    result.error.issues.slice(0, MAX_ISSUES).map((issue) => {
      const at = issue.code === "custom" ? problemAt(issue.params) : undefined;
      return {
        path: issue.path.map(String).join(".").slice(0, MAX_ISSUE_TEXT),
        message: issue.message.slice(0, MAX_ISSUE_TEXT),
        ...(at ? { position: at.position, reason: at.reason.slice(0, MAX_ISSUE_TEXT) } : {}),
      };
    }),
  );
}

function validationFailed(message: string, issues: PolicyValidationIssue[]): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { issues } });
}
