import { PlatformError } from "../../kernel/platform-error.js";
import { ZERO_TRUST_ACTIONS } from "./zero-trust-action.js";
import {
  ZERO_TRUST_LIST_DEFAULT_LIMIT,
  ZERO_TRUST_LIST_MAX_LIMIT,
  type ZeroTrustActionListOptions,
  type ZeroTrustActionRecordInput,
} from "./zero-trust-action-store.js";

/**
 * The checks every ZeroTrustActionStore adapter makes before a put (shared so adapters agree):
 * a non-empty subject and source, a known action, a string reason if any, a finite ttl > 0.
 */
export function checkZeroTrustPut(record: ZeroTrustActionRecordInput, ttlMs: number): void {
  const fields: string[] = [];
  if (typeof record.subject !== "string" || record.subject.length === 0) fields.push("subject");
  if (!(ZERO_TRUST_ACTIONS as readonly unknown[]).includes(record.action)) fields.push("action");
  if (record.reason !== undefined && typeof record.reason !== "string") fields.push("reason");
  if (typeof record.source !== "string" || record.source.length === 0) fields.push("source");
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) fields.push("ttlMs");
  if (fields.length > 0) {
    throw new PlatformError("VALIDATION_FAILED", `Invalid zero-trust record: ${fields.join(", ")}`, {
      details: { fields },
    });
  }
}

/** The effective `list` limit; VALIDATION_FAILED outside 1..ZERO_TRUST_LIST_MAX_LIMIT or for an unknown action. */
export function checkZeroTrustListOptions(options: ZeroTrustActionListOptions = {}): number {
  const limit = options.limit ?? ZERO_TRUST_LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > ZERO_TRUST_LIST_MAX_LIMIT) {
    throw new PlatformError("VALIDATION_FAILED", `limit must be an integer 1..${ZERO_TRUST_LIST_MAX_LIMIT}`, {
      details: { fields: ["limit"] },
    });
  }
  if (options.action !== undefined && !(ZERO_TRUST_ACTIONS as readonly unknown[]).includes(options.action)) {
    throw new PlatformError("VALIDATION_FAILED", "Unknown action filter", {
      details: { fields: ["action"] },
    });
  }
  return limit;
}
