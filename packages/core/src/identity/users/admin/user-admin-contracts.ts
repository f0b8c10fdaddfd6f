import { z } from "zod";
import { jsonAnswer, pathParam } from "../../../web/contract-parts.js";
import type { RouteContract } from "../../../web/route-contract.js";
import { USER_LIST_MAX_LIMIT } from "../user-repository.js";

/** Longest username accepted on create. */
export const MAX_USERNAME_LENGTH = 128;
/** Longest `q` search text. */
export const MAX_USER_QUERY_LENGTH = 128;
/** Longest `email` value read (the address rule then allows 254 after trimming). */
const MAX_EMAIL_INPUT_LENGTH = 320;

/** `POST /admin/api/users`: what the route validates and the document shows. */
export const CreateUserBody = z.strictObject({
  username: z.string().min(1).max(MAX_USERNAME_LENGTH),
  password: z.string().optional(),
  authorities: z.array(z.string()).optional(),
  enabled: z.boolean().optional(),
  email: z.string().max(MAX_EMAIL_INPUT_LENGTH).optional(),
});
/** `PUT /admin/api/users/{userId}/email`: an address sets it, `null` clears it. */
export const EmailBody = z.strictObject({
  email: z.string().max(MAX_EMAIL_INPUT_LENGTH).nullable(),
});
/** `PUT /admin/api/users/{userId}/authorities`. */
export const AuthoritiesBody = z.strictObject({ authorities: z.array(z.string().max(64)).max(64) });
/** `POST /admin/api/users/{userId}/reset-password`: set a password, or mail a reset link. */
export const ResetPasswordBody = z.union([
  z.strictObject({ password: z.string() }),
  z.strictObject({ sendLink: z.literal(true) }),
]);
/** `GET /admin/api/users` query. */
export const UserListQuery = z.strictObject({
  q: z.string().max(MAX_USER_QUERY_LENGTH).optional(),
  offset: z
    .string()
    .regex(/^\d{1,9}$/, "must be a non-negative integer")
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be 1 to ${USER_LIST_MAX_LIMIT}`)
    .optional(),
});

/** An account as the API shows it (`UserJson` of the wire module): never a password hash. */
const UserJson = z.strictObject({
  id: z.string(),
  username: z.string(),
  authorities: z.array(z.string()),
  enabled: z.boolean(),
  locked: z.boolean(),
  hasPassword: z.boolean(),
  email: z.string().optional(),
  version: z.number().int(),
  createdAt: z.number(),
});

const USER_ID = [pathParam("userId", "The user's id (letters, digits, `-`, `_`; at most 128)")];
const ONE_USER = jsonAnswer("The user as it now is", UserJson);

/** The users admin API's contracts, by route name. */
export const USER_ADMIN_CONTRACTS = {
  list: {
    query: UserListQuery,
    responses: { 200: jsonAnswer("The users", z.array(UserJson)) },
    errors: ["VALIDATION_FAILED"],
  },
  create: {
    body: { schema: CreateUserBody, media: ["json"] },
    responses: {
      201: { ...jsonAnswer("The new user", UserJson), headers: { location: "The new user's URL" } },
    },
    errors: ["VALIDATION_FAILED", "CONFLICT"],
  },
  get: {
    pathParams: USER_ID,
    responses: { 200: jsonAnswer("The user", UserJson) },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  delete: {
    pathParams: USER_ID,
    responses: { 204: { description: "Deleted", media: "none" } },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "LAST_ADMINISTRATOR"],
  },
  authorities: {
    pathParams: USER_ID,
    body: { schema: AuthoritiesBody, media: ["json"] },
    responses: { 200: ONE_USER },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "LAST_ADMINISTRATOR"],
  },
  email: {
    pathParams: USER_ID,
    body: { schema: EmailBody, media: ["json"] },
    responses: { 200: ONE_USER },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "CONFLICT"],
  },
  action: {
    pathParams: USER_ID,
    responses: { 200: ONE_USER },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "LAST_ADMINISTRATOR"],
  },
  "factors-reset": {
    pathParams: USER_ID,
    responses: {
      200: jsonAnswer(
        "The factor types removed (none when the user had none) and the user",
        z.strictObject({ user: UserJson, removed: z.array(z.string()) }),
      ),
    },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  "reset-password": {
    pathParams: USER_ID,
    body: { schema: ResetPasswordBody, media: ["json"] },
    responses: { 200: ONE_USER },
    errors: ["VALIDATION_FAILED", "NOT_FOUND", "DELIVERY_FAILED"],
  },
} as const satisfies Record<string, RouteContract>;
