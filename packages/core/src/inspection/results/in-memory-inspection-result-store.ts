import { PlatformError } from "../../kernel/platform-error.js";
import type { InspectionResult } from "../inspection-result.js";
import {
  checkInspectionQuery,
  checkInspectionResult,
  cursorOf,
  isAfter,
  keyMatches,
  outcomeOf,
} from "./inspection-result-rules.js";
import {
  INSPECTION_LIST_MAX_LIMIT,
  type InspectionOutcome,
  type InspectionResultPage,
  type InspectionResultQuery,
  type InspectionResultStore,
} from "./inspection-result-store.js";

const keyOf = (packageId: string, version: string) => `${packageId}\u0000${version}`;
const newestFirst = (a: InspectionResult, b: InspectionResult) =>
  isAfter(a, cursorOf(b)) ? 1 : isAfter(b, cursorOf(a)) ? -1 : 0;
const later = (a: InspectionResult, b: InspectionResult) =>
  a.inspectedAt !== b.inspectedAt ? a.inspectedAt > b.inspectedAt : a.inspectorVersion > b.inspectorVersion;

/**
 * The embedded InspectionResultStore: every result in memory, copied in and out. Sized by what the
 * sealed-evidence store keeps (results of dropped packages stay until the retention job removes them).
 */
export class InMemoryInspectionResultStore implements InspectionResultStore {
  private readonly byKey = new Map<string, InspectionResult>();

  async save(result: InspectionResult): Promise<void> {
    checkInspectionResult(result);
    this.byKey.set(keyOf(result.packageId, result.inspectorVersion), structuredClone(result));
  }

  async get(packageId: string, inspectorVersion: string): Promise<InspectionResult | undefined> {
    const r = this.byKey.get(keyOf(packageId, inspectorVersion));
    return r && structuredClone(r);
  }

  async latest(packageId: string): Promise<InspectionResult | undefined> {
    let best: InspectionResult | undefined;
    for (const r of this.byKey.values()) if (r.packageId === packageId && (!best || later(r, best))) best = r;
    return best && structuredClone(best);
  }

  async inspected(packageIds: readonly string[], inspectorVersion: string): Promise<Set<string>> {
    if (!Array.isArray(packageIds) || packageIds.length > INSPECTION_LIST_MAX_LIMIT)
      throw new PlatformError("VALIDATION_FAILED", `at most ${INSPECTION_LIST_MAX_LIMIT} package ids`, {
        details: { fields: ["packageIds"] },
      });
    return new Set(packageIds.filter((id) => this.byKey.has(keyOf(id, inspectorVersion))));
  }

  async list(q: InspectionResultQuery): Promise<InspectionResultPage> {
    checkInspectionQuery(q);
    const matching = [...this.byKey.values()]
      .filter(
        (r) =>
          (q.inspectorVersion === undefined || r.inspectorVersion === q.inspectorVersion) &&
          (q.verdict === undefined || r.verdict === q.verdict) &&
          (q.check === undefined || r.findings.some((f) => f.check === q.check)) &&
          (q.key === undefined || r.findings.some((f) => keyMatches(f.key, q.key!))) &&
          (q.from === undefined || r.capturedAt >= q.from) &&
          (q.to === undefined || r.capturedAt < q.to) &&
          (q.after === undefined || isAfter(r, q.after)),
      )
      .sort(newestFirst);
    const results = matching.slice(0, q.limit).map((r) => structuredClone(r));
    const last = results.at(-1);
    return matching.length > q.limit && last ? { results, next: cursorOf(last) } : { results };
  }

  async latestInspectionOutcome(packageId: string): Promise<InspectionOutcome | undefined> {
    const r = await this.latest(packageId);
    return r && outcomeOf(r);
  }
}
