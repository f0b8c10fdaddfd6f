import { z } from "zod";
import { SIMULATION_ANSWER } from "../authz/admin/authz-admin-contracts.js";
import { POLICY_HTTP_METHODS } from "../authz/policy/policy.js";
import { PolicyCreateSchema } from "../authz/policy/policy-schema.js";
import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "../authz/zerotrust/zero-trust-action.js";
import { htmlAnswer, jsonAnswer, pageContract, redirectAnswer } from "../web/contract-parts.js";
import type { RouteContract } from "../web/route-contract.js";
import { QuickCreateBody } from "./quick-create.js";

/** Where the authoring routes live. */
export const POLICY_AUTHORING_PATHS = {
  quickCreate: "/admin/policy-center/api/quick-create",
  preview: "/admin/policy-center/api/preview",
  createPolicy: "/admin/policy-center/create-policy",
  fromResource: "/admin/policy-builder/from-resource",
} as const;

/**
 * Where a save sends the browser: the console's policies tab with its `saved` notice. The console's
 * page query is strict (a code of its notice table, no other parameter), so this is its code, and
 * the policy's id is not added.
 */
export const POLICY_SAVED_LOCATION = "/admin/policy-center?tab=policies&notice=saved";

const list = (max: number) => z.array(z.string().min(1).max(200)).max(max);

/** The sample of a JSON preview (the simulator's request fields, all optional). */
const PreviewSampleBody = z.strictObject({
  method: z.enum(POLICY_HTTP_METHODS.filter((m) => m !== "ANY") as [string, ...string[]]).optional(),
  path: z
    .string()
    .max(2_048)
    .regex(/^\/[^\s?#]*$/, "must be a path starting with '/' (no query string)")
    .optional(),
  roles: list(50).optional(),
  authorities: list(50).optional(),
  anonymous: z.boolean().optional(),
  zeroTrustAction: z.enum(ZERO_TRUST_ACTIONS as [ZeroTrustAction, ...ZeroTrustAction[]]).optional(),
  remoteAddress: z.string().min(1).max(64).optional(),
});

/** `POST /admin/policy-center/api/preview`'s body: a draft as the PAP takes it, and a sample. */
export const PreviewBody = z.strictObject({
  policy: PolicyCreateSchema,
  sample: PreviewSampleBody.optional(),
});

const PreviewAnswer = z.looseObject({
  rules: z.array(z.looseObject({ name: z.string(), expressions: z.record(z.string(), z.string()) })),
  expressions: z.record(z.string(), z.string()),
  simulation: SIMULATION_ANSWER.extend({ method: z.string(), decidedByDraft: z.boolean() }).nullable(),
  impact: z.looseObject({
    algorithm: z.string(),
    resources: z.array(z.looseObject({ id: z.string(), relation: z.string(), status: z.string() })),
    shadowedBy: z.array(z.looseObject({ policyId: z.string(), entirely: z.boolean() })),
    shadows: z.array(z.looseObject({ policyId: z.string(), entirely: z.boolean() })),
  }),
});

/** The manual form's fields (urlencoded), as documented; the parser reads the indexed rows. */
const ManualFormBody = z.looseObject({
  action: z.string().optional().describe("preview (default), save, quick, or template:<id>"),
  _csrf: z.string().optional(),
  resourceId: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  effect: z.enum(["ALLOW", "DENY"]).optional(),
  priority: z.string().optional(),
});

/** The authoring routes' contracts (their OpenAPI operations). */
export const POLICY_AUTHORING_CONTRACTS = {
  quickCreate: {
    body: { schema: QuickCreateBody, media: ["json"] },
    responses: {
      201: {
        ...jsonAnswer(
          "The policy (ALLOW, MANUAL, NOT_REQUIRED) and the resource's new status",
          z.strictObject({
            policy: z.looseObject({ id: z.string(), approvalStatus: z.string() }),
            resource: z.strictObject({ id: z.string(), status: z.string(), version: z.number() }),
          }),
        ),
        headers: { location: "The policy's URL in the policy admin API" },
      },
    },
    errors: [
      "VALIDATION_FAILED",
      "NOT_FOUND",
      "ILLEGAL_STATE_TRANSITION",
      "POLICY_EXPRESSION_INVALID",
      "CONFLICT",
    ],
  },
  preview: {
    body: { schema: PreviewBody, media: ["json"] },
    responses: { 200: jsonAnswer("Expressions, the simulator's answer and the impact", PreviewAnswer) },
    errors: ["VALIDATION_FAILED", "POLICY_EXPRESSION_INVALID"],
  },
  createPolicy: {
    body: { schema: ManualFormBody, media: ["form"] },
    responses: {
      200: htmlAnswer("The create tab again: the preview, or the form with a template's condition added"),
      303: redirectAnswer("Saved: to the policies tab with the created notice"),
      400: htmlAnswer("An unknown action: the form again"),
      404: htmlAnswer("Quick grant on an unknown resource: the form again"),
      409: htmlAnswer(
        "Quick grant on a resource not defined as a permission, or the policy store refused the write: the form again",
      ),
      422: htmlAnswer("Refused: the form again, values kept, errors next to their fields"),
    },
    errors: ["MALFORMED_BODY", "UNSUPPORTED_MEDIA_TYPE"],
  },
  fromResource: {
    query: z.strictObject({ resourceId: z.string().optional() }),
    responses: {
      ...pageContract("The create tab, the target pre-filled from the resource").responses,
      400: htmlAnswer("A malformed resource id: an empty form and a notice"),
      404: htmlAnswer("An unknown resource: an empty form and a notice"),
    },
  },
} as const satisfies Record<string, RouteContract>;
