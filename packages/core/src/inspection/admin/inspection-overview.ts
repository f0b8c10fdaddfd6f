import {
  CHECK_CODES,
  type CheckCode,
  INSPECTION_VERDICTS,
  type InspectionResult,
} from "../inspection-result.js";
import { INSPECTION_LIST_MAX_LIMIT, type InspectionResultStore } from "../results/inspection-result-store.js";
import type { CapturePeriod } from "../service/reinspection-jobs.js";
import type { InspectionOverviewJson } from "../../web/wire/inspection-messages.js";

/** Most results the overview counts (past them it says `truncated`). */
export const INSPECTION_OVERVIEW_MAX_RESULTS = 50_000;
const MAX_REASON_ROWS = 50;

type CheckRow = InspectionOverviewJson["byCheck"][number];

/** The counts of a capture period's results by one inspector version. */
export async function inspectionOverview(
  results: InspectionResultStore,
  period: CapturePeriod,
  versions: { inspectorVersion: string; dictionaryVersion: string },
): Promise<InspectionOverviewJson> {
  const byVerdict = Object.fromEntries(
    INSPECTION_VERDICTS.map((v) => [v, 0]),
  ) as InspectionOverviewJson["byVerdict"];
  const byCheck = new Map<CheckCode, CheckRow>(
    CHECK_CODES.map((check) => [
      check,
      { check, mismatchPackages: 0, unverifiablePackages: 0, mismatchFindings: 0, unverifiableFindings: 0 },
    ]),
  );
  const byReason = new Map<string, InspectionOverviewJson["byReason"][number]>();
  let inspected = 0;
  let after: Parameters<InspectionResultStore["list"]>[0]["after"];
  for (;;) {
    const page = await results.list({
      ...period,
      inspectorVersion: versions.inspectorVersion,
      limit: INSPECTION_LIST_MAX_LIMIT,
      ...(after ? { after } : {}),
    });
    for (const r of page.results) {
      if (inspected === INSPECTION_OVERVIEW_MAX_RESULTS) return answer(true);
      inspected++;
      byVerdict[r.verdict]++;
      countFindings(r, byCheck, byReason);
    }
    if (page.next === undefined) return answer(false);
    after = page.next;
  }

  function answer(truncated: boolean): InspectionOverviewJson {
    const reasons = [...byReason.values()].sort(
      (a, b) => b.findings - a.findings || (a.check + a.reason).localeCompare(b.check + b.reason),
    );
    return {
      ...period,
      ...versions,
      inspected,
      truncated,
      byVerdict,
      byCheck: [...byCheck.values()],
      byReason: reasons.slice(0, MAX_REASON_ROWS),
    };
  }
}

function countFindings(
  r: InspectionResult,
  byCheck: Map<CheckCode, CheckRow>,
  byReason: Map<string, InspectionOverviewJson["byReason"][number]>,
): void {
  const seen = new Set<string>();
  for (const f of r.findings) {
    const row = byCheck.get(f.check);
    if (row === undefined) continue;
    const mismatch = f.kind === "MISMATCH";
    if (mismatch) row.mismatchFindings++;
    else row.unverifiableFindings++;
    if (!seen.has(`${f.check}:${f.kind}`)) {
      seen.add(`${f.check}:${f.kind}`);
      if (mismatch) row.mismatchPackages++;
      else row.unverifiablePackages++;
    }
    const key = `${f.check}\u0000${f.kind}\u0000${f.reason}`;
    const reason = byReason.get(key) ?? { check: f.check, kind: f.kind, reason: f.reason, findings: 0 };
    reason.findings++;
    byReason.set(key, reason);
  }
}
