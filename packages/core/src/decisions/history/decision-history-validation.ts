import { PlatformError } from "../../kernel/platform-error.js";
import { DECISION_HISTORY_MAX_LIMIT, type DecisionHistoryRecord } from "./decision-history-store.js";

const REQUIRED_TEXT = ["id", "eventId", "eventKind", "userId", "action"] as const;
const OPTIONAL_TEXT = ["subject", "method", "target", "network", "device", "outcome"] as const;

/** Checks a record before any adapter stores it (VALIDATION_FAILED naming the bad fields). */
export function checkDecisionHistoryRecord(record: DecisionHistoryRecord): void {
  const bad: string[] = [];
  for (const f of REQUIRED_TEXT) if (!isText(record[f])) bad.push(f);
  for (const f of OPTIONAL_TEXT) if (record[f] !== undefined && !isText(record[f])) bad.push(f);
  if (!Number.isFinite(record.at)) bad.push("at");
  for (const f of ["riskScore", "confidence"] as const) {
    const v = record[f];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) bad.push(f);
  }
  if (bad.length > 0)
    throw new PlatformError("VALIDATION_FAILED", `invalid decision history record: ${bad.join(", ")}`, {
      details: { fields: bad },
    });
}

/** Checks a `recentFor` limit (1..DECISION_HISTORY_MAX_LIMIT). */
export function checkDecisionHistoryLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > DECISION_HISTORY_MAX_LIMIT)
    throw new PlatformError(
      "VALIDATION_FAILED",
      `limit must be an integer from 1 to ${DECISION_HISTORY_MAX_LIMIT}`,
      { details: { fields: ["limit"] } },
    );
}

function isText(v: unknown): boolean {
  return typeof v === "string" && v.length > 0 && v.length <= 512;
}
