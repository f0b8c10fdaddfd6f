import { checkZeroTrustListOptions, checkZeroTrustPut } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  ZeroTrustActionListOptions,
  ZeroTrustActionRecord,
  ZeroTrustActionRecordInput,
  ZeroTrustActionStore,
} from "@keyward/core/ports";
import type { Collection, Db, Filter } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `zero_trust_actions` collection's document: the record, `_id` = its subject. */
export interface ZeroTrustActionDocument {
  _id: string;
  action: ZeroTrustActionRecord["action"];
  reason?: string;
  source: string;
  at: number;
  expiresAt: number;
  /** `expiresAt` as a Date: the TTL index drops the record after it (liveness is judged on read). */
  expiresAtDate: Date;
  version: number;
}

/** Options of the MongoZeroTrustActionStore. */
export interface MongoZeroTrustActionStoreOptions {
  db: Db;
  clock: Clock;
  /** Collection name (default `zero_trust_actions`). */
  collection?: string;
}

// A put that keeps losing races to other instances gives up after this many rounds.
const MAX_ROUNDS = 16;

/**
 * ZeroTrustActionStore on MongoDB, one document per subject. Every read asks `expiresAt > now` (the
 * Clock), so an expired verdict is never served whatever the TTL monitor's delay.
 * - `get` (the request path: the zero-trust filter and the PDP's `#ai.*` functions) is one `findOne`
 *   by `_id`; `delete` one `findOneAndDelete`; `list` one `find` sorted `at` desc, `_id` asc, with the
 *   whole page in the first batch.
 * - `put` replaces the live record and bumps its version in one conditional upsert (a subject
 *   without a document starts at version 1 in the same command). Only when an expired document is
 *   still there (the TTL monitor is late) does it fail with a duplicate key and replace that
 *   document at version 1 with one more command.
 * No cap on the number of records (the in-memory default evicts past 100 000): the TTL index bounds
 * the collection by the verdicts' lifetimes.
 */
export class MongoZeroTrustActionStore implements ZeroTrustActionStore {
  private readonly records: Collection<ZeroTrustActionDocument>;
  private readonly clock: Clock;

  constructor(options: MongoZeroTrustActionStoreOptions) {
    this.records = options.db.collection<ZeroTrustActionDocument>(options.collection ?? "zero_trust_actions");
    this.clock = options.clock;
  }

  /** Creates the TTL index and the list order's index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.records.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
      { key: { at: -1, _id: 1 }, name: "at_desc" },
    ]);
  }

  async put(record: ZeroTrustActionRecordInput, ttlMs: number): Promise<ZeroTrustActionRecord> {
    checkZeroTrustPut(record, ttlMs);
    const now = this.clock.now();
    const fields = {
      action: record.action,
      source: record.source,
      at: now,
      expiresAt: now + ttlMs,
      expiresAtDate: new Date(now + ttlMs),
    };
    const reason = record.reason === undefined ? {} : { reason: record.reason };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        const stored = await this.records.findOneAndUpdate(
          { _id: record.subject, expiresAt: { $gt: now } },
          {
            $set: { ...fields, ...reason },
            ...(record.reason === undefined ? { $unset: { reason: "" as const } } : {}),
            $inc: { version: 1 },
          },
          { upsert: true, returnDocument: "after" },
        );
        if (stored) return toRecord(stored);
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const fresh: ZeroTrustActionDocument = { _id: record.subject, ...fields, ...reason, version: 1 };
      const replaced = await this.records.replaceOne(
        { _id: record.subject, expiresAt: { $lte: now } },
        fresh,
      );
      if (replaced.matchedCount === 1) return toRecord(fresh);
    }
    throw new PlatformError("CONFLICT", "The zero-trust record kept changing concurrently");
  }

  async get(subject: string): Promise<ZeroTrustActionRecord | undefined> {
    const doc = await this.records.findOne({ _id: subject, expiresAt: { $gt: this.clock.now() } });
    return doc ? toRecord(doc) : undefined;
  }

  async delete(subject: string): Promise<boolean> {
    const removed = await this.records.findOneAndDelete({ _id: subject }, { projection: { expiresAt: 1 } });
    return removed !== null && removed.expiresAt > this.clock.now();
  }

  async list(options?: ZeroTrustActionListOptions): Promise<ZeroTrustActionRecord[]> {
    const limit = checkZeroTrustListOptions(options);
    const filter: Filter<ZeroTrustActionDocument> = { expiresAt: { $gt: this.clock.now() } };
    if (options?.action !== undefined) filter.action = options.action;
    const docs = await this.records
      .find(filter)
      .sort({ at: -1, _id: 1 })
      .limit(limit)
      .batchSize(limit)
      .toArray();
    return docs.map(toRecord);
  }
}

function toRecord(doc: ZeroTrustActionDocument): ZeroTrustActionRecord {
  return {
    subject: doc._id,
    action: doc.action,
    ...(doc.reason === undefined || doc.reason === null ? {} : { reason: doc.reason }),
    source: doc.source,
    at: doc.at,
    expiresAt: doc.expiresAt,
    version: doc.version,
  };
}
