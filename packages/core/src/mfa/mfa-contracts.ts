import { z } from "zod";
import {
  AssertionCredential,
  AssertionOptions,
  MfaEscalated,
  SignInAnswer,
  SignInFailure,
} from "../identity/identity-contracts.js";
import { jsonAnswer, pathParam, redirectAnswer } from "../web/contract-parts.js";
import type { RouteContract } from "../web/route-contract.js";

// Open: the built-in OTT and PASSKEY and every plugin factor (the server lists them in availableFactors).
const Factor = z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/);
/** Every MFA step names its flow by cookie, or by `mfaSessionId` (or the `X-MFA-Session-Id` header). */
const FlowField = { mfaSessionId: z.string().optional() };

/** `POST <selectFactor>`: the factor to use next (`factorType`, or `factor`). */
export const SelectFactorBody = z.looseObject({
  ...FlowField,
  factorType: Factor.optional(),
  factor: Factor.optional(),
});
/** `POST <ottLoginProcessing>`: the emailed code. */
export const VerifyCodeBody = z.looseObject({ ...FlowField, token: z.string().min(1) });
/** A step that takes only the flow's id. */
const FlowBody = z.looseObject(FlowField);

const MfaStatus = z.looseObject({
  mfaSessionId: z.string(),
  state: z.string(),
  currentFactor: Factor.nullable(),
  satisfied: z.array(Factor),
  missing: z.number(),
  allowed: z.array(Factor),
  requiredFactors: z.number(),
  nextStepUrl: z.string(),
});
const MfaConfig = z.looseObject({
  primary: z.looseObject({ formLoginPage: z.string() }),
  mfa: z.looseObject({ selectFactor: z.string() }),
  api: z.looseObject({ status: z.string(), config: z.string() }),
  flow: z.looseObject({ typeName: z.string(), factors: z.array(Factor), requiredFactors: z.number() }),
});

/** The flow's failures (bad code, expired flow, lockout), as sign-in failures. */
const STEP_ERRORS = [
  "VALIDATION_FAILED",
  "MFA_SESSION_REQUIRED",
  "MFA_SESSION_EXPIRED",
  "MFA_TIMEOUT",
  "MFA_SESSION_BINDING_INVALID",
  "MFA_FACTOR_VERIFICATION_FAILED",
  "MFA_SIGN_IN_ENDED",
  "ILLEGAL_STATE_TRANSITION",
  "TOO_MANY_ATTEMPTS",
  "ACCOUNT_LOCKED",
];

/** One MFA step: its body, the next step or the finished sign-in, the flow's failures. */
function step(body: z.ZodType, description: string, extra: string[] = []): RouteContract {
  return {
    body: { schema: body, media: ["json", "form"], required: false },
    responses: {
      200: jsonAnswer(description, z.union([SignInAnswer, z.looseObject({ success: z.literal(true) })])),
      202: jsonAnswer("Escalated: an administrator decides", MfaEscalated),
      302: redirectAnswer("A browser form: to the next page of the flow"),
    },
    errors: [...STEP_ERRORS, ...extra],
    errorSchema: SignInFailure,
  };
}

const ESCALATION_ID = [pathParam("escalationId", "The escalation's id")];
const Decided = z.strictObject({ id: z.string(), status: z.string(), decidedBy: z.string().nullable() });

/** The MFA routes' contracts. */
export const MFA_CONTRACTS = {
  config: { responses: { 200: jsonAnswer("The flow's URLs and factors", MfaConfig) } },
  status: {
    responses: { 200: jsonAnswer("The caller's flow", MfaStatus) },
    errors: STEP_ERRORS,
    errorSchema: SignInFailure,
  },
  selectFactor: step(SelectFactorBody, "The chosen factor's next step"),
  generateCode: step(FlowBody, "A code was sent", ["DELIVERY_FAILED"]),
  verifyCode: step(VerifyCodeBody, "The next step, or signed in"),
  cancel: step(FlowBody, "The flow was cancelled"),
  passkeyOptions: {
    body: { schema: FlowBody, media: ["json"], required: false },
    responses: { 200: jsonAnswer("Assertion options bound to the flow", AssertionOptions) },
    errors: STEP_ERRORS,
    errorSchema: SignInFailure,
  },
  passkeyVerify: step(AssertionCredential, "The next step, or signed in", [
    "WEBAUTHN_CHALLENGE_INVALID",
    "WEBAUTHN_VERIFICATION_FAILED",
  ]),
  escalationList: {
    responses: {
      200: jsonAnswer(
        "Pending escalated sign-ins",
        z.array(
          z.looseObject({
            id: z.string(),
            username: z.string(),
            createdAt: z.number(),
            expiresAt: z.number(),
          }),
        ),
      ),
    },
  },
  escalationDecide: {
    pathParams: ESCALATION_ID,
    responses: { 200: jsonAnswer("The decision", Decided) },
    errors: ["NOT_FOUND", "CONFLICT", "ACCESS_DENIED"],
  },
  escalationStatus: {
    responses: {
      200: jsonAnswer(
        "Pending (retry later), or the sign-in's outcome",
        z.union([SignInAnswer, z.looseObject({ status: z.string() })]),
      ),
      202: jsonAnswer("Still pending", MfaEscalated),
    },
    errors: [...STEP_ERRORS, "ACCESS_DENIED", "AUTHENTICATION_BLOCKED"],
    errorSchema: SignInFailure,
  },
} as const satisfies Record<string, RouteContract>;
