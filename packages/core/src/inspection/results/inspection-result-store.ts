import type { InjectionToken } from "tsyringe";
import type { CheckCode, InspectionResult, InspectionVerdict } from "../inspection-result.js";

/** What a listing of inspection results asks for; every filter optional but the page size. */
export interface InspectionResultQuery {
  /** Only this inspector version's results (the current one, for the console); all versions when absent. */
  readonly inspectorVersion?: string;
  readonly verdict?: InspectionVerdict;
  /** Only results with a finding of this check. */
  readonly check?: CheckCode;
  /** Only results with a finding on this key, or on a key of this block (`request` matches `request.subject`, `past-record` matches `past-record:<id>`). */
  readonly key?: string;
  /** Capture period, epoch milliseconds: `from` inclusive, `to` exclusive. */
  readonly from?: number;
  readonly to?: number;
  /** 1 to INSPECTION_LIST_MAX_LIMIT. */
  readonly limit: number;
  /** The `next` of the previous page. */
  readonly after?: InspectionResultCursor;
}

/** Where a page ended: the last result's capture time, package id and inspector version. */
export interface InspectionResultCursor {
  readonly capturedAt: number;
  readonly packageId: string;
  readonly inspectorVersion: string;
}

/** One page of results, newest capture first (then package id, then inspector version, descending). */
export interface InspectionResultPage {
  readonly results: InspectionResult[];
  /** Set when more results may follow. */
  readonly next?: InspectionResultCursor;
}

/**
 * What the retention job needs of a package's latest inspection: NOTHING_WRONG (PASS or
 * NOT_APPLICABLE: no finding at all) may be kept the clean period; FINDINGS (FAIL, INCOMPLETE,
 * ERROR) keeps the default.
 */
export type InspectionOutcome = "NOTHING_WRONG" | "FINDINGS";

/** Largest page of `InspectionResultStore.list`. */
export const INSPECTION_LIST_MAX_LIMIT = 500;

/**
 * Inspection results, one per package and inspector version: saving the same pair again replaces
 * it (a re-inspection), a new inspector version adds its own. Results are the inspector's; nothing
 * else changes them.
 */
export interface InspectionResultStore {
  /** Stores `result` as the package's result by its inspector version (replacing an earlier one of that version). */
  save(result: InspectionResult): Promise<void>;
  /** The package's result by `inspectorVersion`, if any. */
  get(packageId: string, inspectorVersion: string): Promise<InspectionResult | undefined>;
  /** The package's latest result (the latest `inspectedAt`, of any version), if any. */
  latest(packageId: string): Promise<InspectionResult | undefined>;
  /** Which of `packageIds` (at most INSPECTION_LIST_MAX_LIMIT) have a result by `inspectorVersion`. */
  inspected(packageIds: readonly string[], inspectorVersion: string): Promise<Set<string>>;
  /** A page of results (VALIDATION_FAILED for a bad limit, period or cursor). */
  list(query: InspectionResultQuery): Promise<InspectionResultPage>;
  /** For the retention job: what the package's latest inspection found; undefined when never inspected. */
  latestInspectionOutcome(packageId: string): Promise<InspectionOutcome | undefined>;
}

/** DI token of the InspectionResultStore port. */
export const InspectionResultStore: InjectionToken<InspectionResultStore> = Symbol.for(
  "platform.InspectionResultStore",
);
