import { z } from "zod";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { RouteContract } from "../../web/route-contract.js";

/** One decision in the list (`SecurityDecisionSummaryJson`). */
const DecisionSummary = z.looseObject({
  id: z.string(),
  at: z.number(),
  userId: z.string(),
  action: z.enum(["ALLOW", "CHALLENGE", "ESCALATE", "BLOCK"]),
  layer: z.enum(["L1", "L2"]),
});

/** The security decisions admin API's contracts. */
export const DECISIONS_CONTRACTS = {
  list: {
    query: z.strictObject({
      user: z.string().optional(),
      action: z.string().optional(),
      layer: z.string().optional(),
      since: z.string().optional(),
      until: z.string().optional(),
      limit: z.string().optional(),
    }),
    responses: {
      200: jsonAnswer(
        "Newest first",
        z.strictObject({ decisions: z.array(DecisionSummary), limit: z.number() }),
      ),
    },
    errors: ["VALIDATION_FAILED"],
  },
  get: {
    pathParams: [{ name: "id", description: "The decision's id" }],
    responses: {
      200: jsonAnswer(
        "The decision with its seal and, when sealed, its prompts as sent",
        DecisionSummary.extend({
          sealed: z.boolean(),
          seal: z.looseObject({ packageHash: z.string(), intact: z.boolean() }).nullable(),
          prompts: z.array(z.looseObject({ layer: z.string() })),
          input: z.looseObject({}).nullable(),
        }),
      ),
    },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
} as const satisfies Record<string, RouteContract>;
