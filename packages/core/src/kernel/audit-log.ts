import type { InjectionToken } from "tsyringe";
import type { AuditEvent } from "./audit-sink.js";
import { PlatformError } from "./platform-error.js";

/** Filters of an audit-trail read; every given filter must match (exact values, `at` bounds). */
export interface AuditQuery {
  /** Exact event type, e.g. `authz.denied`. */
  type?: string;
  /** Exact principal. */
  principal?: string;
  outcome?: AuditEvent["outcome"];
  /** Epoch milliseconds, inclusive. */
  since?: number;
  /** Epoch milliseconds, exclusive. */
  until?: number;
  /** The most recent matches to return, 1 to {@link AUDIT_QUERY_MAX_LIMIT} (default 100). */
  limit?: number;
}

/** Largest `limit` an AuditLog answers. */
export const AUDIT_QUERY_MAX_LIMIT = 1000;

/**
 * Reads the audit trail that an AuditSink writes (the admin API's `/admin/api/audit`). An adapter
 * that replaces the AuditSink replaces this port too, usually with the same instance.
 */
export interface AuditLog {
  /** The most recent `limit` events matching every filter, oldest first. */
  query(query?: AuditQuery): Promise<AuditEvent[]>;
}

/** DI token of the AuditLog port. */
export const AuditLog: InjectionToken<AuditLog> = Symbol.for("platform.AuditLog");

/** The query's limit, checked: an integer from 1 to the maximum, 100 when absent. */
export function auditQueryLimit(query: AuditQuery): number {
  const limit = query.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_QUERY_MAX_LIMIT) {
    throw new PlatformError(
      "VALIDATION_FAILED",
      `limit must be an integer from 1 to ${AUDIT_QUERY_MAX_LIMIT}`,
    );
  }
  return limit;
}

/** True when `event` passes every filter of `query` (for adapters that filter in memory). */
export function matchesAuditQuery(event: AuditEvent, query: AuditQuery): boolean {
  if (query.type !== undefined && event.type !== query.type) return false;
  if (query.principal !== undefined && event.principal !== query.principal) return false;
  if (query.outcome !== undefined && event.outcome !== query.outcome) return false;
  const at = event.at ?? 0;
  if (query.since !== undefined && at < query.since) return false;
  if (query.until !== undefined && at >= query.until) return false;
  return true;
}

/** The AuditLog when the trail lives where the platform cannot read it (a host sink without a log). */
export class UnreadableAuditLog implements AuditLog {
  /** Always rejects: the host's sink keeps the records, read them there. */
  async query(): Promise<AuditEvent[]> {
    throw new PlatformError("NOT_FOUND", "Audit records are kept by the host's sink");
  }
}
