import { z } from "zod";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import type { ConvergenceReports } from "../convergence/convergence-report.js";
import { releaseAdmin } from "./release-admin-access.js";
import { RELEASE_ADMIN_FEATURE } from "./release-admin-endpoints.js";
import { PROMPT_QUALITY_API } from "./release-admin-paths.js";
import { releaseName, releaseQuery } from "./release-admin-requests.js";

/** `GET` the convergence report (`?registryScope=`). */
export const CONVERGENCE_API = `${PROMPT_QUALITY_API}/convergence`;

/** `GET …/prompt-quality/convergence?registryScope=`: one scope, or every scope. */
export const ConvergenceQuery = z.strictObject({ registryScope: releaseName.optional() });

const Verdict = z.enum(["SILENT", "NOT_FOLLOWING", "STALE", "PENDING", "CONVERGED"]);
const Served = z.strictObject({ promptVersion: z.string(), bundleHash: z.string(), source: z.string() });

const Report = z.strictObject({
  generatedAt: z.number(),
  boundMs: z.number(),
  silentAfterMs: z.number(),
  scopes: z.array(
    z.strictObject({
      registryScope: z.string(),
      releases: z.array(
        z.looseObject({
          promptKey: z.string(),
          promptVersion: z.string(),
          bundleHash: z.string(),
          status: z.enum(["ACTIVE", "CANARY"]),
          changedAt: z.number(),
        }),
      ),
    }),
  ),
  instances: z.array(
    z.strictObject({
      instanceId: z.string(),
      startedAt: z.number(),
      lastBeatAt: z.number(),
      verdict: Verdict,
      reason: z.string(),
      scopes: z.array(
        z.strictObject({
          registryScope: z.string(),
          promptKey: z.string(),
          verdict: Verdict,
          reason: z.string(),
          serving: z.array(Served),
        }),
      ),
    }),
  ),
});

/** The convergence endpoint's contract (the OpenAPI document reads it; the handler parses the same query). */
export const CONVERGENCE_CONTRACT = {
  query: ConvergenceQuery,
  responses: {
    200: jsonAnswer(
      "The registry's executing releases per scope and every instance's convergence verdict",
      Report,
    ),
  },
  errors: ["VALIDATION_FAILED"],
} as const satisfies RouteContract;

/**
 * `GET /platform/admin/api/prompt-quality/convergence` (issue 31): ADMIN only, through the release
 * API's access check (401 anonymous, 403 audited otherwise), `no-store`. Its one parameter is
 * `registryScope`; any other, a repeated one or a hostile value is VALIDATION_FAILED (400).
 */
export class ConvergenceEndpoint {
  constructor(private readonly o: { reports: ConvergenceReports; audit: AuditSink }) {}

  /** The endpoint's route. */
  routes(): Route[] {
    return [
      {
        feature: RELEASE_ADMIN_FEATURE,
        access: "admin",
        method: "GET",
        path: CONVERGENCE_API,
        name: "governance.convergence",
        meta: { contract: CONVERGENCE_CONTRACT },
        description: "Which bundle every instance serves per scope, against the registry (registryScope)",
        handler: (x) => this.report(x),
      },
    ];
  }

  private async report(exchange: HttpExchange): Promise<void> {
    releaseAdmin(exchange, this.o.audit);
    const query = releaseQuery(ConvergenceQuery, exchange.query);
    exchange.json(200, { ...(await this.o.reports.report(query.registryScope)) });
  }
}
