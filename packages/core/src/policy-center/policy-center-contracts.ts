import { htmlAnswer, pathParam, redirectAnswer } from "../web/contract-parts.js";
import type { RouteContract } from "../web/route-contract.js";
import { NoticeQuery, PageQuery, ResourceQuery } from "./console-query.js";
import { PolicyEditForm } from "./policy-console-actions.js";
import { DefineForm, MoveForm } from "./resource-console-actions.js";
import { z } from "zod";
import { MAX_REJECTION_REASON_LENGTH } from "../authz/policy/policy-administration-service.js";

const PAGE = htmlAnswer("The page");
const REFUSED = htmlAnswer("The page with a notice saying what was refused");
const UNKNOWN = htmlAnswer("A page saying the id is unknown");
const STALE = htmlAnswer(
  "The current page with a notice: a newer version, or a move the state does not allow",
);
const BACK = redirectAnswer("Back to the page the form came from, with a notice");
const RESOURCE_ID = [pathParam("resourceId", "The managed resource's id (letters, digits, `-`, `_`)")];
const POLICY_ID = [pathParam("policyId", "The policy's id (letters, digits, `-`, `_`)")];
const MOVE_ERRORS = ["VALIDATION_FAILED", "NOT_FOUND", "CONFLICT", "ILLEGAL_STATE_TRANSITION"];

function formPost(
  pathParams: RouteContract["pathParams"],
  schema: z.ZodType,
  errors = MOVE_ERRORS,
): RouteContract {
  return {
    pathParams,
    body: { schema, media: ["form"], required: false },
    responses: { 303: BACK, 400: REFUSED, 404: UNKNOWN, 409: STALE },
    errors: [...errors, "POLICY_EXPRESSION_INVALID"],
  };
}

/** The Policy Center's route contracts (its OpenAPI operations). */
export const POLICY_CENTER_CONTRACTS = {
  importStaticRules: formPost(undefined, z.strictObject({}), ["VALIDATION_FAILED"]),
  page: {
    query: PageQuery,
    responses: { 200: PAGE, 400: REFUSED },
    errors: ["VALIDATION_FAILED"],
  },
  policyPage: {
    pathParams: POLICY_ID,
    query: NoticeQuery,
    responses: { 200: PAGE, 400: REFUSED, 404: UNKNOWN },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  define: formPost(RESOURCE_ID, DefineForm),
  move: formPost(RESOURCE_ID, MoveForm),
  edit: formPost(POLICY_ID, PolicyEditForm),
  reject: formPost(
    POLICY_ID,
    z.strictObject({ reason: z.string().max(MAX_REJECTION_REASON_LENGTH).optional() }),
  ),
  policyMove: formPost(POLICY_ID, z.strictObject({})),
  workbench: {
    query: ResourceQuery,
    responses: {
      302: redirectAnswer("The Policy Center's resources tab with the same filter"),
      400: REFUSED,
    },
    errors: ["VALIDATION_FAILED"],
  },
} as const satisfies Record<string, RouteContract>;
