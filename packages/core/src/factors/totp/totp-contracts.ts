import { z } from "zod";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { RouteContract } from "../../web/route-contract.js";

/** What every enrolment endpoint can refuse beyond the route's facts: a step-up first. */
const FRESH_FACTOR = ["MFA_CHALLENGE_REQUIRED"];

/** The authenticator-app enrolment endpoints' contracts (the OpenAPI document reads them). */
export const TOTP_CONTRACTS = {
  enrol: {
    body: { schema: z.looseObject({}), media: ["json"], required: false },
    responses: {
      201: jsonAnswer(
        "A pending enrolment: show the QR code or the secret, then confirm with one code",
        z.object({
          otpauthUri: z.string(),
          secret: z.string(),
          qrCodeSvg: z.string(),
          digits: z.number().int(),
          periodSeconds: z.number().int(),
        }),
      ),
    },
    errors: [...FRESH_FACTOR, "CONFLICT"],
  },
  confirm: {
    body: { schema: z.object({ code: z.string().max(64) }), media: ["json"] },
    responses: { 200: jsonAnswer("The app is a factor now", z.object({ enrolled: z.literal(true) })) },
    errors: [...FRESH_FACTOR, "VALIDATION_FAILED", "CONFLICT", "TOO_MANY_ATTEMPTS"],
  },
  remove: {
    responses: { 204: { description: "Removed", media: "none" } },
    errors: [...FRESH_FACTOR, "NOT_FOUND"],
  },
} satisfies Record<string, RouteContract>;
