import { z } from "zod";
import { htmlAnswer, jsonAnswer, pathParam, redirectAnswer } from "../web/contract-parts.js";
import type { RouteContract } from "../web/route-contract.js";

/** Longest refresh token the token endpoints read (the token service's limit too). */
const MAX_REFRESH_TOKEN_LENGTH = 512;

/** A finished sign-in (`SignInSuccessAnswer`); token fields on `.oauth2()` chains. */
const SignInSuccess = z.looseObject({
  success: z.literal(true),
  redirectUrl: z.string(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  tokenType: z.string().optional(),
  expiresIn: z.number().optional(),
});
/** "MFA required" or the next step (`MfaRequiredAnswer`). */
const MfaRequired = z.looseObject({
  mfaRequired: z.literal(true),
  mfaSessionId: z.string(),
  status: z.enum(["MFA_REQUIRED", "MFA_CONTINUE"]),
  nextStepUrl: z.string(),
  availableFactors: z.array(z.string()),
});
/** An escalated sign-in waiting for an administrator (`MfaEscalatedAnswer`, 202). */
export const MfaEscalated = z.looseObject({
  escalated: z.literal(true),
  status: z.literal("PENDING"),
  statusUrl: z.string(),
  retryAfterSeconds: z.number(),
});
/** A refused sign-in step (`SignInFailureAnswer`): the error answers of the sign-in endpoints. */
export const SignInFailure = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  failureType: z.string(),
  code: z.string(),
});
/** What a sign-in or MFA step answers with 200. */
export const SignInAnswer = z.union([SignInSuccess, MfaRequired]);

/** The codes a username/password or one-time-token sign-in can answer. */
const SIGN_IN_ERRORS = [
  "VALIDATION_FAILED",
  "BAD_CREDENTIALS",
  "ACCOUNT_LOCKED",
  "ACCOUNT_DISABLED",
  "TOO_MANY_ATTEMPTS",
  "AUTHENTICATION_BLOCKED",
  "ZERO_TRUST_BLOCKED",
];

/**
 * The sign-in answers every sign-in endpoint shares: 200 signed in (or MFA required), 202 escalated,
 * 302 for a browser form (to the success or failure URL), refusals as SignInFailure.
 */
export function signInContract(
  body: z.ZodType,
  media: readonly ("json" | "form")[],
  errors = SIGN_IN_ERRORS,
): RouteContract {
  return {
    body: { schema: body, media },
    responses: {
      200: jsonAnswer("Signed in, or the MFA flow's first step (JSON callers)", SignInAnswer),
      202: jsonAnswer("Escalated: an administrator decides; poll statusUrl", MfaEscalated),
      302: redirectAnswer("A browser form: to the success URL, or back to the sign-in page with an error"),
    },
    errors,
    errorSchema: SignInFailure,
  };
}

/** The body of a username/password sign-in, with the chain's field names (`username`, `password` by default). */
export function passwordBody(usernameField: string, passwordField: string): z.ZodType {
  return z.looseObject({ [usernameField]: z.string().min(1), [passwordField]: z.string().min(1) });
}

/** `POST /api/token/refresh` (`TokenRefreshBody`): what the endpoint validates. */
export const TokenRefreshBody = z.looseObject({
  refreshToken: z.string().min(1).max(MAX_REFRESH_TOKEN_LENGTH),
});
/** `POST /api/token/revoke` (`TokenRevokeBody`). */
const TokenRevokeBody = z.looseObject({ refreshToken: z.string().max(MAX_REFRESH_TOKEN_LENGTH).optional() });
/** A new token pair (`TokenPairAnswer`). */
const TokenPair = z.looseObject({
  success: z.literal(true),
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiresIn: z.number(),
});

/** `POST /ott/generate` (`OttGenerateBody`). */
export const OttGenerateBody = z.looseObject({ username: z.string().min(1) });
/** `POST /login/ott` (`OttLoginBody`). */
export const OttLoginBody = z.looseObject({ token: z.string().min(1), username: z.string().optional() });

const Me = z.looseObject({
  id: z.string(),
  username: z.string(),
  authorities: z.array(z.string()),
  authenticatedBy: z.enum(["bearer", "session"]),
  method: z.string(),
  authenticatedAt: z.string(),
  factors: z.array(z.string()),
});

/** A passkey assertion as JSON (`AuthenticationCredentialJson`). */
export const AssertionCredential = z.looseObject({
  id: z.string(),
  rawId: z.string(),
  type: z.string(),
  response: z.looseObject({
    clientDataJSON: z.string(),
    authenticatorData: z.string(),
    signature: z.string(),
  }),
});
/** `POST /webauthn/register` (`PasskeyRegistrationBody`). */
const PasskeyRegistrationBody = z.looseObject({
  response: z.looseObject({
    id: z.string(),
    rawId: z.string(),
    type: z.string(),
    response: z.looseObject({ clientDataJSON: z.string(), attestationObject: z.string() }),
  }),
  label: z.string().optional(),
});
/** Assertion options (`PublicKeyRequestOptionsJson`). */
export const AssertionOptions = z.looseObject({ challenge: z.string() });
const CreationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.string() })),
});
const PasskeySummary = z.looseObject({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
const WEBAUTHN_ERRORS = ["VALIDATION_FAILED", "WEBAUTHN_CHALLENGE_INVALID", "WEBAUTHN_VERIFICATION_FAILED"];

/** The identity routes' contracts. */
export const IDENTITY_CONTRACTS = {
  logout: {
    body: { schema: TokenRevokeBody, media: ["json", "form"], required: false },
    responses: {
      200: jsonAnswer("Signed out (JSON callers)", z.looseObject({ success: z.literal(true) })),
      302: redirectAnswer("A browser: to the logout success URL"),
    },
    errors: ["VALIDATION_FAILED"],
  },
  me: { responses: { 200: jsonAnswer("The caller", Me) } },
  refresh: {
    body: { schema: TokenRefreshBody, media: ["json"] },
    responses: { 200: jsonAnswer("A new pair; the old refresh token is spent", TokenPair) },
    errors: [
      "VALIDATION_FAILED",
      "INVALID_TOKEN",
      "TOKEN_EXPIRED",
      "REFRESH_TOKEN_RACE_LOST",
      "ZERO_TRUST_BLOCKED",
      "ACCOUNT_DISABLED",
    ],
  },
  revoke: {
    body: { schema: TokenRevokeBody, media: ["json"], required: false },
    responses: { 200: jsonAnswer("Revoked", z.looseObject({ success: z.literal(true) })) },
    errors: ["VALIDATION_FAILED", "INVALID_TOKEN"],
  },
  ottGenerate: {
    body: { schema: OttGenerateBody, media: ["json", "form"] },
    responses: {
      200: jsonAnswer(
        "The same answer whether or not the account exists",
        z.looseObject({ success: z.literal(true), message: z.string(), submitPageUrl: z.string() }),
      ),
      302: redirectAnswer("A browser form: to the submit page"),
    },
    errors: ["VALIDATION_FAILED", "TOO_MANY_ATTEMPTS"],
    errorSchema: SignInFailure,
  },
  ottLogin: signInContract(OttLoginBody, ["json", "form"], [...SIGN_IN_ERRORS, "INVALID_TOKEN"]),
  passkeyOptions: {
    body: { schema: z.looseObject({ username: z.string().optional() }), media: ["json"], required: false },
    responses: { 200: jsonAnswer("Assertion options; the challenge cookie is set", AssertionOptions) },
    errors: ["VALIDATION_FAILED", "TOO_MANY_ATTEMPTS"],
  },
  passkeyLogin: signInContract(
    AssertionCredential,
    ["json"],
    [...SIGN_IN_ERRORS, ...WEBAUTHN_ERRORS, "WEBAUTHN_COUNTER_REGRESSION"],
  ),
  registrationOptions: {
    body: { schema: z.looseObject({}), media: ["json"], required: false },
    responses: { 200: jsonAnswer("Creation options; the challenge cookie is set", CreationOptions) },
  },
  register: {
    body: { schema: PasskeyRegistrationBody, media: ["json"] },
    responses: {
      201: jsonAnswer(
        "The new passkey",
        z.looseObject({ id: z.string(), label: z.string(), createdAt: z.string() }),
      ),
    },
    errors: [...WEBAUTHN_ERRORS, "CONFLICT"],
  },
  credentials: { responses: { 200: jsonAnswer("The caller's passkeys", z.array(PasskeySummary)) } },
  deletePasskey: {
    pathParams: [pathParam("credentialId", "The passkey's credential id (base64url)")],
    responses: { 204: { description: "Deleted", media: "none" } },
    errors: ["NOT_FOUND", "VALIDATION_FAILED"],
  },
  resetPage: {
    query: z.looseObject({ token: z.string().optional() }),
    responses: { 200: htmlAnswer("The reset form (or why the link is no longer valid)") },
  },
  resetSubmit: {
    body: { schema: z.looseObject({ token: z.string(), password: z.string() }), media: ["form", "json"] },
    responses: {
      200: htmlAnswer("The password was set (or the form again, with what to fix)"),
      302: redirectAnswer("To the sign-in page once the password is set"),
      400: htmlAnswer("The form again, with what to fix"),
    },
    errors: ["PASSWORD_RESET_TOKEN_INVALID", "VALIDATION_FAILED", "TOO_MANY_ATTEMPTS"],
  },
} as const satisfies Record<string, RouteContract>;
