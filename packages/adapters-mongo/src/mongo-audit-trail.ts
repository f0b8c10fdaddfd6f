import type { AuditEvent, AuditLog, AuditQuery, AuditSink, Clock, Logger } from "@keyward/core/ports";
import { auditQueryLimit } from "@keyward/core/adapter-kit";
import { type Collection, type Db, type Filter, MongoBulkWriteError } from "mongodb";

/** The `audit_events` collection's document: the event as recorded, plus a Date for the TTL index. */
export interface AuditEventDocument {
  type: string;
  /** Epoch ms (stamped from the Clock at `record` when the event had none). */
  at: number;
  /** `at` as a Date: the TTL index removes the event after the retention period. */
  atDate: Date;
  principal?: string;
  outcome?: AuditEvent["outcome"];
  remoteAddress?: string;
  correlationId?: string;
  data?: Record<string, unknown>;
}

/** Options of the MongoAuditTrail. */
export interface MongoAuditTrailOptions {
  db: Db;
  /** Stamps events recorded without `at`. */
  clock: Clock;
  /** Where a failed write is reported (once per outage, and once at recovery). */
  logger?: Logger;
  /** Collection name (default `audit_events`). */
  collection?: string;
  /** How long events are kept (ms, default 90 days): the TTL index's `expireAfterSeconds`. */
  retentionMs?: number;
  /** Events waiting to be written before the oldest waiting one is dropped and counted (default 10 000). */
  maxQueued?: number;
  /** Most events per `insertMany` (default 500). */
  maxBatch?: number;
}

/** Default retention of audit events: 90 days. */
export const AUDIT_RETENTION_DEFAULT_MS = 90 * 24 * 3_600_000;

const PROJECTION = { _id: 0, atDate: 0 } as const;

/**
 * The audit trail on MongoDB: the AuditSink that writes it and the AuditLog that reads it (one
 * instance behind both tokens). `record` is synchronous and never throws: it stamps and copies the
 * event into a bounded queue, and one writer drains the queue in order with ordered `insertMany`
 * batches (events recorded in one tick go in one command), one batch in flight at a time, so events
 * reach the database in the order they were recorded. A failed batch is counted (`failed`) and
 * logged once per outage, never retried (a poison event must not block the trail) and never thrown
 * into a request; a full queue drops its oldest event and counts it (`dropped`), as the in-memory
 * trail does. Reads sort by `at` then by insertion (the driver's ObjectId), newest first, take
 * `limit` and answer oldest first; a read first waits for this instance's queued events. Events are
 * kept `retentionMs` (TTL index on `atDate`). Commands: one `insert` per batch, one `find` per query.
 */
export class MongoAuditTrail implements AuditSink, AuditLog {
  private readonly events: Collection<AuditEventDocument>;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly retentionSeconds: number;
  private readonly maxQueued: number;
  private readonly maxBatch: number;
  private queue: AuditEventDocument[] = [];
  private writing: Promise<void> | undefined;
  private failedCount = 0;
  private droppedCount = 0;
  private failing = false;

  constructor(options: MongoAuditTrailOptions) {
    this.events = options.db.collection<AuditEventDocument>(options.collection ?? "audit_events", {
      ignoreUndefined: true,
    });
    this.clock = options.clock;
    this.logger = options.logger;
    this.retentionSeconds = Math.ceil((options.retentionMs ?? AUDIT_RETENTION_DEFAULT_MS) / 1000);
    this.maxQueued = options.maxQueued ?? 10_000;
    this.maxBatch = options.maxBatch ?? 500;
  }

  /** Creates the time, type and principal indexes and the retention TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.events.createIndexes([
      { key: { at: -1, _id: -1 }, name: "at" },
      { key: { type: 1, at: -1 }, name: "type_at" },
      { key: { principal: 1, at: -1 }, name: "principal_at" },
      { key: { atDate: 1 }, name: "retention_ttl", expireAfterSeconds: this.retentionSeconds },
    ]);
  }

  record(event: AuditEvent): void {
    try {
      this.queue.push(toDocument(event, event.at ?? this.clock.now()));
      if (this.queue.length > this.maxQueued) {
        this.queue.shift();
        this.droppedCount++;
      }
    } catch {
      // A hostile event (a throwing getter, say) is dropped and counted, never rethrown.
      this.droppedCount++;
      return;
    }
    this.writing ??= Promise.resolve().then(() => this.drain());
  }

  /** Resolves once every event recorded before the call has been written (or counted as failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The most recent `limit` events matching every filter, oldest first (after this instance's queue is written). */
  async query(query: AuditQuery = {}): Promise<AuditEvent[]> {
    const limit = auditQueryLimit(query);
    await this.flush();
    const docs = await this.events
      .find(filterOf(query), { projection: PROJECTION })
      .sort({ at: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.reverse() as AuditEvent[];
  }

  /** Events whose write failed (the database refused or could not be reached). */
  get failed(): number {
    return this.failedCount;
  }

  /** Events dropped before any write: the queue was full, or the event could not be read. */
  get dropped(): number {
    return this.droppedCount;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(batch: AuditEventDocument[]): Promise<void> {
    try {
      await this.events.insertMany(batch, { ordered: true });
      if (this.failing) {
        this.failing = false;
        this.logger?.info("audit trail writes resumed", { failedEvents: this.failedCount });
      }
    } catch (e) {
      const written = e instanceof MongoBulkWriteError ? e.result.insertedCount : 0;
      this.failedCount += batch.length - written;
      if (!this.failing) {
        this.failing = true;
        this.logger?.error("audit trail write failed; events are counted as lost until writes resume", {
          lostEvents: batch.length - written,
          error: e instanceof Error ? e.name : "unknown",
        });
      }
    }
  }
}

/** The event's own fields only (an extra `_id` or `atDate` on a caller's object is not written). */
function toDocument(event: AuditEvent, at: number): AuditEventDocument {
  return {
    type: event.type,
    at,
    atDate: new Date(at),
    principal: event.principal,
    outcome: event.outcome,
    remoteAddress: event.remoteAddress,
    correlationId: event.correlationId,
    data: event.data,
  };
}

function filterOf(query: AuditQuery): Filter<AuditEventDocument> {
  const filter: Filter<AuditEventDocument> = {};
  // `$eq` keeps a value that is not a string (a parsed query object) from acting as an operator.
  if (query.type !== undefined) filter.type = { $eq: query.type };
  if (query.principal !== undefined) filter.principal = { $eq: query.principal };
  if (query.outcome !== undefined) filter.outcome = { $eq: query.outcome };
  if (query.since !== undefined || query.until !== undefined) {
    filter.at = {
      ...(query.since !== undefined && { $gte: query.since }),
      ...(query.until !== undefined && { $lt: query.until }),
    };
  }
  return filter;
}
