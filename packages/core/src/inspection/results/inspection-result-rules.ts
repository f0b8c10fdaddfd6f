import { PlatformError } from "../../kernel/platform-error.js";
import type { InspectionResult } from "../inspection-result.js";
import {
  INSPECTION_LIST_MAX_LIMIT,
  type InspectionOutcome,
  type InspectionResultCursor,
  type InspectionResultQuery,
} from "./inspection-result-store.js";

const bad = (fields: string[], message: string) =>
  new PlatformError("VALIDATION_FAILED", message, { details: { fields } });
const isTime = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown) => typeof v === "string" && v !== "" && v.length <= 200;

/** Checks a listing query (limit, period, cursor); VALIDATION_FAILED names the bad fields. */
export function checkInspectionQuery(q: InspectionResultQuery): void {
  const fields: string[] = [];
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > INSPECTION_LIST_MAX_LIMIT) fields.push("limit");
  if (q.from !== undefined && !isTime(q.from)) fields.push("from");
  if (q.to !== undefined && !isTime(q.to)) fields.push("to");
  for (const name of ["inspectorVersion", "verdict", "check", "key"] as const)
    if (q[name] !== undefined && !isName(q[name])) fields.push(name);
  const a = q.after;
  if (a !== undefined && !(isTime(a.capturedAt) && isName(a.packageId) && isName(a.inspectorVersion)))
    fields.push("after");
  if (fields.length) throw bad(fields, `Invalid ${fields.join(", ")}`);
}

/** Checks the keys of a result before it is stored (package id, version, times). */
export function checkInspectionResult(r: InspectionResult): void {
  const fields: string[] = [];
  if (!isName(r.packageId)) fields.push("packageId");
  if (!isName(r.inspectorVersion)) fields.push("inspectorVersion");
  if (!isTime(r.capturedAt)) fields.push("capturedAt");
  if (!isTime(r.inspectedAt)) fields.push("inspectedAt");
  if (fields.length) throw bad(fields, `Invalid ${fields.join(", ")}`);
}

/** NOTHING_WRONG for a PASS or NOT_APPLICABLE result without findings; FINDINGS otherwise. */
export function outcomeOf(r: InspectionResult): InspectionOutcome {
  return (r.verdict === "PASS" || r.verdict === "NOT_APPLICABLE") && r.findings.length === 0
    ? "NOTHING_WRONG"
    : "FINDINGS";
}

/** True when `r` sorts after `cursor` in the listing order (capture time, package id, version: descending). */
export function isAfter(r: InspectionResult, c: InspectionResultCursor): boolean {
  if (r.capturedAt !== c.capturedAt) return r.capturedAt < c.capturedAt;
  if (r.packageId !== c.packageId) return r.packageId < c.packageId;
  return r.inspectorVersion < c.inspectorVersion;
}

/** The cursor of a result. */
export const cursorOf = (r: InspectionResult): InspectionResultCursor => ({
  capturedAt: r.capturedAt,
  packageId: r.packageId,
  inspectorVersion: r.inspectorVersion,
});

/** True when a finding's key is `key` or lies in block `key` (`request.` entries, `past-record:` records). */
export const keyMatches = (found: string | undefined, key: string): boolean =>
  found !== undefined && (found === key || found.startsWith(`${key}.`) || found.startsWith(`${key}:`));
