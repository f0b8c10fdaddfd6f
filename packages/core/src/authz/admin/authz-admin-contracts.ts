import { z } from "zod";
import { jsonAnswer, pathParam } from "../../web/contract-parts.js";
import type { RouteContract } from "../../web/route-contract.js";
import { PolicyCreateSchema, PolicyUpdateSchema } from "../policy/policy-schema.js";

/** A policy as the admin API shows it (`PolicyJson` of the wire module). */
const PolicyJson = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  effect: z.enum(["ALLOW", "DENY"]),
  priority: z.number(),
  targets: z.array(
    z.looseObject({ targetType: z.string(), targetIdentifier: z.string(), httpMethod: z.string() }),
  ),
  rules: z.array(
    z.looseObject({ name: z.string(), conditions: z.array(z.looseObject({ expression: z.string() })) }),
  ),
  source: z.string(),
  approvalStatus: z.string(),
  isActive: z.boolean(),
  version: z.number().int(),
});

/** A zero-trust record (`ZeroTrustActionJson`). */
const ZeroTrustActionJson = z.looseObject({
  subject: z.string(),
  action: z.enum(["ALLOW", "BLOCK", "CHALLENGE", "ESCALATE", "PENDING_ANALYSIS"]),
  reason: z.string().nullable(),
  source: z.string(),
  at: z.number(),
  expiresAt: z.number(),
  version: z.number().int(),
});

/** `PUT /admin/api/zerotrust/actions/{subject}`: the fields the endpoint accepts (others are refused). */
export const ZeroTrustActionBody = z.strictObject({
  action: z.enum(["ALLOW", "BLOCK", "CHALLENGE", "ESCALATE", "PENDING_ANALYSIS"]),
  reason: z.string().optional(),
  ttlSeconds: z.number().int().positive().optional(),
});

const POLICY_ID = [pathParam("policyId", "The policy's id (letters, digits, `-`, `_`)")];
const SUBJECT = [
  pathParam("subject", "`user:<id>`, `username:<name>` or `session:<handle>`, URL-encoded or not"),
];
const ONE_POLICY = jsonAnswer("The policy as it now is", PolicyJson);
const POLICY_ERRORS = ["VALIDATION_FAILED", "NOT_FOUND", "CONFLICT", "ILLEGAL_STATE_TRANSITION"];

/** The policy admin API's contracts. */
export const POLICY_ADMIN_CONTRACTS = {
  list: {
    query: z.strictObject({
      source: z.string().optional(),
      approvalStatus: z.string().optional(),
      isActive: z.enum(["true", "false"]).optional(),
      targetType: z.string().optional(),
      q: z.string().optional(),
    }),
    responses: { 200: jsonAnswer("The policies", z.array(PolicyJson)) },
    errors: ["VALIDATION_FAILED"],
  },
  create: {
    body: { schema: PolicyCreateSchema, media: ["json"] },
    responses: {
      201: {
        ...jsonAnswer(
          "The new policy: MANUAL and IMPORTED ones NOT_REQUIRED (enforced at once), AI_GENERATED and AI_EVOLVED ones PENDING",
          PolicyJson,
        ),
        headers: { location: "Its URL" },
      },
    },
    errors: ["VALIDATION_FAILED", "POLICY_EXPRESSION_INVALID", "CONFLICT"],
  },
  get: { pathParams: POLICY_ID, responses: { 200: ONE_POLICY }, errors: ["VALIDATION_FAILED", "NOT_FOUND"] },
  update: {
    pathParams: POLICY_ID,
    body: { schema: PolicyUpdateSchema, media: ["json"] },
    responses: { 200: ONE_POLICY },
    errors: [...POLICY_ERRORS, "POLICY_EXPRESSION_INVALID"],
  },
  delete: {
    pathParams: POLICY_ID,
    responses: { 204: { description: "Deleted", media: "none" } },
    errors: POLICY_ERRORS,
  },
  action: { pathParams: POLICY_ID, responses: { 200: ONE_POLICY }, errors: POLICY_ERRORS },
  reject: {
    pathParams: POLICY_ID,
    body: { schema: z.strictObject({ reason: z.string().optional() }), media: ["json"], required: false },
    responses: { 200: ONE_POLICY },
    errors: POLICY_ERRORS,
  },
} as const satisfies Record<string, RouteContract>;

/** The zero-trust admin API's contracts. */
export const ZERO_TRUST_ADMIN_CONTRACTS = {
  list: {
    query: z.strictObject({ limit: z.string().optional(), action: z.string().optional() }),
    responses: { 200: jsonAnswer("Live records, newest first", z.array(ZeroTrustActionJson)) },
    errors: ["VALIDATION_FAILED"],
  },
  refused: { responses: {}, errors: ["VALIDATION_FAILED"] },
  get: {
    pathParams: SUBJECT,
    responses: { 200: jsonAnswer("The record", ZeroTrustActionJson) },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "SUBJECT_NOT_FOUND"],
  },
  set: {
    pathParams: SUBJECT,
    body: { schema: ZeroTrustActionBody, media: ["json"] },
    responses: { 200: jsonAnswer("The record written", ZeroTrustActionJson) },
    errors: ["VALIDATION_FAILED", "SUBJECT_NOT_FOUND"],
  },
  clear: {
    pathParams: SUBJECT,
    responses: {
      200: jsonAnswer(
        "Whether a record was cleared",
        z.strictObject({ subject: z.string(), cleared: z.boolean() }),
      ),
    },
    errors: ["VALIDATION_FAILED", "SUBJECT_NOT_FOUND"],
  },
} as const satisfies Record<string, RouteContract>;

/** The simulation's answer. */
export const SIMULATION_ANSWER = z.looseObject({
  algorithm: z.string(),
  path: z.string(),
  subject: z.looseObject({ username: z.string(), authorities: z.array(z.string()) }).nullable(),
  decision: z.looseObject({ granted: z.boolean(), reason: z.string() }),
  trail: z.array(z.unknown()),
});
