import { z } from "zod";
import { MAX_PATH_PATTERN_LENGTH } from "../../web/path-pattern.js";
import { POLICY_EFFECTS, POLICY_HTTP_METHODS } from "./policy.js";
import { POLICY_LIMITS } from "./policy-schema.js";

/** Limits of a business rule (besides the policy's own, POLICY_LIMITS). */
export const BUSINESS_RULE_LIMITS = {
  maxTargets: POLICY_LIMITS.maxTargets,
  maxTimeWindows: 10,
  maxIpRanges: 50,
  maxRoles: 50,
  maxPermissions: 50,
  maxAiConditions: 10,
  maxAiArgs: 5,
  authorityMaxLength: 100,
} as const;

/** A role or permission name: the authority words the expression language quotes. */
const AUTHORITY = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const DAY = z.enum(["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]);
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

const authority = z
  .string()
  .min(1)
  .max(BUSINESS_RULE_LIMITS.authorityMaxLength)
  .regex(AUTHORITY, "must be letters, digits, '_', '.', ':' or '-', starting with a letter or '_'");

/** A time window: some days of the week, a time of day from (inclusive) to (exclusive), or both. */
const timeWindow = z
  .strictObject({
    days: z.array(DAY).min(1).max(7).optional(),
    from: z.string().regex(TIME, "must be HH:MM, 00:00 to 23:59").optional(),
    to: z.string().regex(TIME, "must be HH:MM, 00:00 to 23:59").optional(),
    /** IANA zone; the platform evaluates times in `platform.policy.time-zone`, so it must be that one. */
    zone: z.string().min(1).max(64).optional(),
  })
  .refine((w) => (w.from === undefined) === (w.to === undefined), "give both from and to, or neither")
  .refine((w) => w.days !== undefined || w.from !== undefined, "give days, from and to, or both")
  .refine(
    (w) => w.from === undefined || w.from !== w.to,
    "from and to must differ (the window would be empty)",
  );

/** A managed resource as a target: what the resource list shows (identifier, type, method). */
const resourceTarget = z.strictObject({
  resourceType: z.enum(["URL", "METHOD"]),
  resourceIdentifier: z.string().min(1).max(MAX_PATH_PATTERN_LENGTH),
  httpMethod: z.enum(POLICY_HTTP_METHODS).optional(),
});

/** An `#ai.*` function of the expression language, with its string arguments (`hasActionIn`'s actions). */
const aiCondition = z.strictObject({
  function: z.string().min(1).max(40),
  args: z.array(z.string().min(1).max(40)).max(BUSINESS_RULE_LIMITS.maxAiArgs).optional(),
});

/**
 * A business rule as an administrator states it: what it protects (managed resources, or a URL
 * pattern and method), who (roles, permissions), when (time windows), from where (IP ranges), the
 * zero-trust outcome (`#ai.*`) and a custom expression; `mode` says whether to preview or save.
 */
export const BusinessRuleSchema = z
  .strictObject({
    name: z.string().min(1).max(POLICY_LIMITS.nameMaxLength),
    description: z.string().max(POLICY_LIMITS.descriptionMaxLength).optional(),
    effect: z.enum(POLICY_EFFECTS).default("ALLOW"),
    priority: z.int().min(POLICY_LIMITS.priorityMin).max(POLICY_LIMITS.priorityMax).optional(),
    resources: z.array(resourceTarget).min(1).max(BUSINESS_RULE_LIMITS.maxTargets).optional(),
    urlPattern: z.string().min(1).max(MAX_PATH_PATTERN_LENGTH).optional(),
    httpMethod: z.enum(POLICY_HTTP_METHODS).optional(),
    timeWindows: z.array(timeWindow).min(1).max(BUSINESS_RULE_LIMITS.maxTimeWindows).optional(),
    ipRanges: z.array(z.string().min(1).max(64)).min(1).max(BUSINESS_RULE_LIMITS.maxIpRanges).optional(),
    roles: z.array(authority).min(1).max(BUSINESS_RULE_LIMITS.maxRoles).optional(),
    permissions: z.array(authority).min(1).max(BUSINESS_RULE_LIMITS.maxPermissions).optional(),
    aiConditions: z.array(aiCondition).min(1).max(BUSINESS_RULE_LIMITS.maxAiConditions).optional(),
    customConditionSpel: z.string().min(1).max(POLICY_LIMITS.expressionMaxLength).optional(),
    mode: z.enum(["preview", "save"]),
  })
  .refine((r) => r.resources !== undefined || r.urlPattern !== undefined, {
    message: "give the resources or a urlPattern the rule protects",
    path: ["resources"],
  })
  .refine((r) => r.httpMethod === undefined || r.urlPattern !== undefined, {
    message: "httpMethod goes with urlPattern",
    path: ["httpMethod"],
  });

/** A business rule as a client writes it. */
export type BusinessRuleInput = z.input<typeof BusinessRuleSchema>;
/** A validated business rule. */
export type BusinessRule = z.output<typeof BusinessRuleSchema>;
