import { PlatformError } from "../../kernel/platform-error.js";
import type { ChainEntry } from "./chain-entry.js";
import { EVIDENCE_RECENT_MAX_LIMIT } from "./sealed-evidence-store.js";

const HASH = /^[0-9a-f]{64}$/;
const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const KINDS = ["PACKAGE", "ERASURE", "DELETION"];

/** VALIDATION_FAILED unless `limit` is an integer 1..EVIDENCE_RECENT_MAX_LIMIT. */
export function checkEvidenceLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > EVIDENCE_RECENT_MAX_LIMIT)
    throw invalid(`limit must be an integer from 1 to ${EVIDENCE_RECENT_MAX_LIMIT}`, "limit");
}

/** VALIDATION_FAILED unless `value` is a non-negative safe integer (a time or a sequence). */
export function checkInstant(value: number, field: string): void {
  if (!(typeof value === "number" && Number.isSafeInteger(value) && value >= 0))
    throw invalid(`${field} must be a non-negative integer`, field);
}

/** VALIDATION_FAILED unless `entry` is a well-formed chain entry (the store refuses it whole). */
export function checkChainEntry(entry: ChainEntry): void {
  if (!NAME.test(entry.instanceId)) throw invalid("instanceId must be an instance name", "instanceId");
  if (!Number.isSafeInteger(entry.sequence) || entry.sequence < 1)
    throw invalid("sequence must be a positive integer", "sequence");
  checkInstant(entry.at, "at");
  if (!KINDS.includes(entry.kind)) throw invalid("kind must be PACKAGE, ERASURE or DELETION", "kind");
  if (!HASH.test(entry.entryHash) || !HASH.test(entry.link))
    throw invalid("entryHash and link must be SHA-256 hex", "link");
  const ids = entry.packageIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || id === "" || id.length > 128))
    throw invalid("packageIds must be ids of 1 to 128 characters", "packageIds");
  if (entry.kind === "PACKAGE" && (ids.length !== 1 || entry.header?.id !== ids[0]))
    throw invalid("a PACKAGE entry names one package, the one its header seals", "packageIds");
  if (entry.kind !== "PACKAGE" && (ids.length < 1 || ids.length > EVIDENCE_RECENT_MAX_LIMIT))
    throw invalid(
      `an ERASURE or DELETION entry names 1 to ${EVIDENCE_RECENT_MAX_LIMIT} packages`,
      "packageIds",
    );
}

function invalid(message: string, field: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field] } });
}
