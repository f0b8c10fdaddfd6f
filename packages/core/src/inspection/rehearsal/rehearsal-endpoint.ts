import { z } from "zod";
import { releaseAdmin } from "../../governance/admin/release-admin-access.js";
import { releaseName } from "../../governance/admin/release-admin-requests.js";
import { MAX_REHEARSAL_PACKAGES } from "../../governance/evidence/rehearsal-content.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { parseWith } from "../../policy-center/console-input.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import { checkedPeriod, ReinspectionBody } from "../admin/inspection-admin-requests.js";
import { type BundleRehearsal, type RehearsalRequest } from "./bundle-rehearsal.js";

/** Where a rehearsal is asked for. */
export const REHEARSALS_PATH = "/platform/admin/api/prompt-inspection/rehearsals";
/** Packages rehearsed when the request names no limit. */
export const DEFAULT_REHEARSAL_LIMIT = 200;
/** The capture period when the request names none: the 7 days before now. */
const DEFAULT_PERIOD_MS = 7 * 24 * 60 * 60_000;
/** An instant as the inspection API takes one (ISO-8601 date or date-time with its zone, or epoch ms). */
const instant = ReinspectionBody.shape.from;

/** `POST …/rehearsals` body: the candidate version, an optional period and limit, and whether to record. */
export const RehearsalBody = z.strictObject({
  candidate: releaseName.max(64),
  from: instant.optional(),
  to: instant.optional(),
  limit: z.number().int().min(1).max(MAX_REHEARSAL_PACKAGES).optional(),
  record: z.boolean().optional(),
});

const CONTRACT: RouteContract = {
  body: { schema: RehearsalBody, media: ["json"] },
  responses: {
    200: jsonAnswer(
      "The rehearsal's summary (REHEARSAL evidence content) and the evidence record made, or null",
      z.looseObject({ rehearsal: z.looseObject({}), record: z.looseObject({}).nullable() }),
    ),
  },
  errors: ["VALIDATION_FAILED", "PROMPT_BUNDLE_NOT_IN_BUILD"],
};

/** The request of a checked body, with the defaults filled in (`now` from the Clock port). */
export function rehearsalRequestOf(body: z.output<typeof RehearsalBody>, now: number): RehearsalRequest {
  const to = body.to ?? now;
  // The inspection API's own period rule (from before to, at most MAX_PERIOD_DAYS) and error shape.
  const { from, to: until } = checkedPeriod(body.from ?? Math.max(0, to - DEFAULT_PERIOD_MS), to);
  return {
    candidate: body.candidate,
    from,
    to: until,
    limit: body.limit ?? DEFAULT_REHEARSAL_LIMIT,
    record: body.record ?? true,
  };
}

/**
 * `POST /platform/admin/api/prompt-inspection/rehearsals` (ADMIN): a counterfactual re-render of
 * the sealed contexts of a capture period with a candidate bundle, answered as its summary and
 * recorded as REHEARSAL evidence unless `record` is false. A rehearsal is read-only but for that
 * record; it is a POST because it records and opens payloads (an audited read).
 */
export class RehearsalEndpoint {
  constructor(private readonly o: { rehearsal: BundleRehearsal; audit: AuditSink; clock: Clock }) {}

  /** The route, an application route of the `inspection` feature. */
  route(): Route {
    return {
      method: "POST",
      path: REHEARSALS_PATH,
      name: "inspection.admin.rehearse",
      meta: { contract: CONTRACT },
      description:
        "Re-renders the sealed contexts of a period with a candidate bundle, runs the layout checks (no model call), and records the result as REHEARSAL evidence",
      feature: "inspection",
      access: "admin",
      handler: (exchange) => this.answer(exchange),
    };
  }

  private async answer(exchange: HttpExchange): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    const body = parseWith(RehearsalBody, await exchange.fields(["json"]));
    const request = rehearsalRequestOf(body, this.o.clock.now());
    const outcome = await this.o.rehearsal.run(request, actor);
    exchange.json(200, { rehearsal: outcome.rehearsal, record: outcome.record });
  }
}
