import type { SealedEvidence } from "../../decisions/evidence/sealed-evidence-service.js";
import { releaseQuery } from "../../governance/admin/release-admin-requests.js";
import type {
  EvidenceRecord,
  ReleaseEvidenceLedger,
} from "../../governance/evidence/release-evidence-ledger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { SECURITY_DECISION_PROMPT_KEY } from "../../prompts/bundles/bundle-definition.js";
import type {
  InspectionOverviewJson,
  InspectionPackageDetailJson,
  InspectionPackagePageJson,
} from "../../web/wire/inspection-messages.js";
import {
  checkedPeriod,
  checkPackageId,
  decodeCursor,
  encodeCursor,
  keyFilterOf,
  OverviewQuery,
  overviewPeriod,
  PackagesQuery,
  pageSizeOf,
} from "./inspection-admin-requests.js";
import { inspectionOverview } from "./inspection-overview.js";
import { resultOf, summaryOf } from "./inspection-views.js";
import { INSPECTOR_VERSION } from "../inspection-result.js";
import type { InspectionResultStore } from "../results/inspection-result-store.js";

/** What the inspection's reads need: its stores, the sealed evidence and the clock's now. */
export interface InspectionQueriesOptions {
  readonly results: InspectionResultStore;
  /** The release evidence ledger (its REHEARSAL records); absent without prompt governance. */
  readonly ledger?: ReleaseEvidenceLedger | undefined;
  readonly evidence: SealedEvidence;
  readonly dictionaryVersion: string;
  readonly now: () => number;
}

/**
 * The inspection's reads for the admin API and the console pages alike, in the API's shapes (web/wire/inspection-messages.ts) and judged by
 * the admin API's own query rules (an unknown, repeated or bad parameter is VALIDATION_FAILED; a
 * blank one, as a GET form sends it, is absent), so a page and the API never disagree on a filter.
 */
export class InspectionQueries {
  constructor(private readonly o: InspectionQueriesOptions) {}

  /** The overview of the query's period (default the last 7 days). */
  async overview(query: URLSearchParams): Promise<InspectionOverviewJson> {
    const period = overviewPeriod(releaseQuery(OverviewQuery, query), this.o.now());
    const versions = { inspectorVersion: INSPECTOR_VERSION, dictionaryVersion: this.o.dictionaryVersion };
    return inspectionOverview(this.o.results, period, versions);
  }

  /** The newest REHEARSAL evidence records of the security-decision prompt; undefined without a ledger. */
  async rehearsals(limit: number): Promise<EvidenceRecord[] | undefined> {
    return this.o.ledger?.list({ promptKey: SECURITY_DECISION_PROMPT_KEY, kind: "REHEARSAL", limit });
  }

  /** One page of inspected packages by the query's filters, newest capture first. */
  async packages(query: URLSearchParams): Promise<InspectionPackagePageJson> {
    const q = releaseQuery(PackagesQuery, query);
    if (q.from !== undefined && q.to !== undefined && q.from >= q.to) checkedPeriod(q.from, q.to);
    const key = keyFilterOf(q);
    const page = await this.o.results.list({
      inspectorVersion: INSPECTOR_VERSION,
      limit: pageSizeOf(q.limit),
      ...(q.verdict ? { verdict: q.verdict } : {}),
      ...(q.check ? { check: q.check } : {}),
      ...(key ? { key } : {}),
      ...(q.from === undefined ? {} : { from: q.from }),
      ...(q.to === undefined ? {} : { to: q.to }),
      ...(q.cursor === undefined ? {} : { after: decodeCursor(q.cursor) }),
    });
    return { packages: page.results.map(summaryOf), next: page.next ? encodeCursor(page.next) : null };
  }

  /** One package with its result, seal and prompts (an audited read by `reader`); NOT_FOUND when not sealed. */
  async detail(
    packageId: string,
    reader: { principal: string; remoteAddress?: string | undefined },
  ): Promise<InspectionPackageDetailJson> {
    const id = checkPackageId(packageId);
    const evidence = await this.o.evidence.read(id, reader);
    if (evidence?.seal == null)
      throw new PlatformError("NOT_FOUND", "No sealed package with this id is kept");
    const result = (await this.o.results.get(id, INSPECTOR_VERSION)) ?? (await this.o.results.latest(id));
    const { payload, seal } = evidence;
    return {
      packageId: id,
      capturedAt: evidence.record.at,
      result: result ? resultOf(result, payload) : null,
      seal: { ...seal, checkpoint: seal.checkpoint ?? null },
      prompts: payload
        ? payload.prompts.map((p) => ({ layer: p.layer, system: p.system, user: p.user }))
        : null,
    };
  }
}
