import { PlatformError } from "@keyward/core/errors";
import type { SealedEvidenceStore } from "@keyward/core/ports";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type ChainEntry = Parameters<SealedEvidenceStore["append"]>[0];

/** Most packages a list read or an erasure/deletion entry names (the core's EVIDENCE_RECENT_MAX_LIMIT). */
export const MAX_EVIDENCE_LIMIT = 1000;
const HASH = /^[0-9a-f]{64}$/;
const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const KINDS = ["PACKAGE", "ERASURE", "DELETION"];

/**
 * The checks the core's in-memory store makes before it stores or reads (its `checkChainEntry`,
 * kept out of the adapter kit by the surface cap): VALIDATION_FAILED naming the field, no command sent.
 */
export function checkEntry(entry: ChainEntry): void {
  if (typeof entry.instanceId !== "string" || !NAME.test(entry.instanceId))
    throw invalid("instanceId must be an instance name", "instanceId");
  if (!Number.isSafeInteger(entry.sequence) || entry.sequence < 1)
    throw invalid("sequence must be a positive integer", "sequence");
  checkNonNegative(entry.at, "at");
  if (!KINDS.includes(entry.kind)) throw invalid("kind must be PACKAGE, ERASURE or DELETION", "kind");
  if (
    typeof entry.entryHash !== "string" ||
    !HASH.test(entry.entryHash) ||
    typeof entry.link !== "string" ||
    !HASH.test(entry.link)
  )
    throw invalid("entryHash and link must be SHA-256 hex", "link");
  const ids = entry.packageIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || id === "" || id.length > 128))
    throw invalid("packageIds must be ids of 1 to 128 characters", "packageIds");
  if (entry.kind === "PACKAGE" && (ids.length !== 1 || entry.header?.id !== ids[0]))
    throw invalid("a PACKAGE entry names one package, the one its header seals", "packageIds");
  if (entry.kind !== "PACKAGE" && (ids.length < 1 || ids.length > MAX_EVIDENCE_LIMIT))
    throw invalid(`an ERASURE or DELETION entry names 1 to ${MAX_EVIDENCE_LIMIT} packages`, "packageIds");
}

/** VALIDATION_FAILED unless `value` is a non-negative safe integer. */
export function checkNonNegative(value: number, field: string): void {
  if (!(typeof value === "number" && Number.isSafeInteger(value) && value >= 0))
    throw invalid(`${field} must be a non-negative integer`, field);
}

function invalid(message: string, field: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field] } });
}
