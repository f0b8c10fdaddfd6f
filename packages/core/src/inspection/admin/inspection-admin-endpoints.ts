import { z } from "zod";
import type { SealedEvidence } from "../../decisions/evidence/sealed-evidence-service.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { parseWith } from "../../policy-center/console-input.js";
import { jsonAnswer, pathParam } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import type {
  InspectionPackageDetailJson,
  ReinspectionStatusJson,
} from "../../web/wire/inspection-messages.js";
import type { InspectionResultStore } from "../results/inspection-result-store.js";
import type { PromptInspection } from "../service/prompt-inspection.js";
import type { ReinspectionJobs } from "../service/reinspection-jobs.js";
import { inspectionAdmin } from "./inspection-admin-access.js";
import { InspectionQueries } from "./inspection-queries.js";
import {
  checkedPeriod,
  checkPackageId,
  OverviewQuery,
  PackagesQuery,
  ReinspectionBody,
} from "./inspection-admin-requests.js";

/** Where the prompt-inspection admin API lives. */
export const PROMPT_INSPECTION_API = "/platform/admin/api/prompt-inspection";
/** The feature the inspection routes belong to (a platform feature: no managed resource is made of them). */
export const PROMPT_INSPECTION_FEATURE = "inspection";

const answer = (description: string) => jsonAnswer(description, z.looseObject({}));
const PACKAGE_ID = [pathParam("packageId", "The sealed package's id (the decision's id)")];
const C = {
  overview: {
    query: OverviewQuery,
    responses: { 200: answer("Counts of a capture period by verdict, check and finding kind") },
    errors: ["VALIDATION_FAILED"],
  },
  packages: {
    query: PackagesQuery,
    responses: { 200: answer("A page of inspected packages, newest capture first") },
    errors: ["VALIDATION_FAILED"],
  },
  detail: {
    pathParams: PACKAGE_ID,
    responses: {
      200: answer("The package's result with every finding on its prompt line, its seal and prompts"),
    },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  reinspect: {
    pathParams: PACKAGE_ID,
    body: { schema: z.strictObject({}), media: ["json"], required: false },
    responses: { 200: answer("The package inspected again, as the detail answers it") },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  startJob: {
    body: { schema: ReinspectionBody, media: ["json"] },
    responses: { 202: answer("The reinspection job, started") },
    errors: ["VALIDATION_FAILED", "CONFLICT"],
  },
  job: { responses: { 200: answer("The running or last reinspection job (null when none)") }, errors: [] },
} as const satisfies Record<string, RouteContract>;

/** What the endpoints read. */
export interface InspectionAdminOptions {
  readonly inspection: PromptInspection;
  readonly results: InspectionResultStore;
  readonly evidence: SealedEvidence;
  readonly jobs: ReinspectionJobs;
  readonly dictionaryVersion: string;
  readonly clock: Clock;
  readonly audit: AuditSink;
}

/**
 * The prompt-inspection admin API (spec, "inspection endpoints"), ADMIN only (401 anonymous, 403
 * audited `inspection.admin.denied`), `no-store`: the overview of a period, the packages listing,
 * one package (an audited read of its prompts), reinspect one, and the reinspection job (POST starts,
 * GET reads). Shapes: `web/wire/inspection-messages.ts`, docs/prompt-inspection.md.
 */
export class InspectionAdminEndpoints {
  private readonly queries: InspectionQueries;

  constructor(private readonly o: InspectionAdminOptions) {
    this.queries = new InspectionQueries({
      results: o.results,
      evidence: o.evidence,
      dictionaryVersion: o.dictionaryVersion,
      now: () => o.clock.now(),
    });
  }

  /** The routes, one per endpoint. */
  routes(): Route[] {
    const route = (
      method: Route["method"],
      path: string,
      name: string,
      contract: RouteContract,
      description: string,
      handler: Route["handler"],
    ): Route => ({
      feature: PROMPT_INSPECTION_FEATURE,
      access: "admin",
      method,
      path: `${PROMPT_INSPECTION_API}${path}`,
      name: `inspection.${name}`,
      meta: { contract },
      description,
      handler,
    });
    return [
      route(
        "GET",
        "/overview",
        "overview",
        C.overview,
        "Inspection counts of a capture period (from, to; default the last 7 days)",
        (x) => this.overview(x),
      ),
      route(
        "GET",
        "/packages",
        "packages",
        C.packages,
        "Inspected packages by verdict, check code, block and entry, with a cursor",
        (x) => this.packages(x),
      ),
      route(
        "GET",
        "/packages/{packageId}",
        "package",
        C.detail,
        "One package's inspection with its findings, seal and prompts (audited read)",
        (x, p) => this.detail(x, p.packageId ?? ""),
      ),
      route(
        "POST",
        "/packages/{packageId}/reinspect",
        "reinspect",
        C.reinspect,
        "Inspects one package again now",
        (x, p) => this.reinspect(x, p.packageId ?? ""),
      ),
      route(
        "POST",
        "/reinspections",
        "reinspections.start",
        C.startJob,
        "Asks the automatic round to inspect a capture period again (202)",
        (x) => this.startJob(x),
      ),
      route(
        "GET",
        "/reinspections",
        "reinspections.status",
        C.job,
        "The running or last reinspection job and its progress",
        (x) => this.job(x),
      ),
    ];
  }

  private async overview(exchange: HttpExchange): Promise<void> {
    inspectionAdmin(exchange, this.o.audit);
    exchange.json(200, { ...(await this.queries.overview(exchange.query)) });
  }

  private async packages(exchange: HttpExchange): Promise<void> {
    inspectionAdmin(exchange, this.o.audit);
    exchange.json(200, { ...(await this.queries.packages(exchange.query)) });
  }

  private async detail(exchange: HttpExchange, packageId: string): Promise<void> {
    const admin = inspectionAdmin(exchange, this.o.audit);
    exchange.json(200, { ...(await this.detailOf(checkPackageId(packageId), admin.username, exchange)) });
  }

  private async reinspect(exchange: HttpExchange, packageId: string): Promise<void> {
    const admin = inspectionAdmin(exchange, this.o.audit);
    const id = checkPackageId(packageId);
    parseWith(z.strictObject({}), (await exchange.text()) === "" ? {} : await exchange.fields(["json"]));
    if ((await this.o.inspection.inspect(id)) === undefined) throw notFound();
    exchange.json(200, { ...(await this.detailOf(id, admin.username, exchange)) });
  }

  private async startJob(exchange: HttpExchange): Promise<void> {
    const admin = inspectionAdmin(exchange, this.o.audit);
    const body = parseWith(ReinspectionBody, await exchange.fields(["json"]));
    const job = await this.o.jobs.start(checkedPeriod(body.from, body.to), admin.username);
    const answer: ReinspectionStatusJson = { job };
    exchange.json(202, { ...answer });
  }

  private async job(exchange: HttpExchange): Promise<void> {
    inspectionAdmin(exchange, this.o.audit);
    const answer: ReinspectionStatusJson = { job: this.o.jobs.status() ?? null };
    exchange.json(200, { ...answer });
  }

  private detailOf(
    id: string,
    principal: string,
    exchange: HttpExchange,
  ): Promise<InspectionPackageDetailJson> {
    return this.queries.detail(id, { principal, remoteAddress: exchange.remoteAddress });
  }
}

const notFound = () => new PlatformError("NOT_FOUND", "No sealed package with this id is kept");
