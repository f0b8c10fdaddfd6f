import { checkDecisionHistoryLimit, checkDecisionHistoryRecord } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type { DecisionHistoryRecord, DecisionHistoryStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `decision_history` collection's document: the record, `_id` = its id, `seq` its append order. */
export interface DecisionHistoryDocument extends Omit<DecisionHistoryRecord, "id"> {
  _id: string;
  /** Orders records of one instant: later appends are larger (see the store). */
  seq: number;
}

/** Options of the MongoDecisionHistoryStore. */
export interface MongoDecisionHistoryStoreOptions {
  db: Db;
  /** Collection name (default `decision_history`). */
  collection?: string;
}

// Appends within one millisecond of one process keep their order; across instances, wall time.
const SEQ_PER_MS = 4096;
let lastSeq = 0;
function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now() * SEQ_PER_MS);
  return lastSeq;
}

/**
 * DecisionHistoryStore on MongoDB: one document per decision, `_id` = the decision id, so a second
 * record with an id is 11000 → CONFLICT. `recentFor` is one `find` on `{ userId }` sorted by
 * `{ at: -1, seq: -1 }` with the limit, served by the `userId_at_seq` index. `seq` is the append order
 * (wall-clock milliseconds × 4096 plus a process counter), so records of one `at` read later append
 * first, as in memory. No TTL and no per-user cap: the pipeline reads the newest `history.limit`
 * records, and retention is a host's choice (a TTL index on a date it adds, or a sweep).
 */
export class MongoDecisionHistoryStore implements DecisionHistoryStore {
  private readonly records: Collection<DecisionHistoryDocument>;

  constructor(options: MongoDecisionHistoryStoreOptions) {
    this.records = options.db.collection<DecisionHistoryDocument>(options.collection ?? "decision_history");
  }

  /** The index `recentFor` reads through. */
  async ensureIndexes(): Promise<void> {
    await this.records.createIndexes([{ key: { userId: 1, at: -1, seq: -1 }, name: "userId_at_seq" }]);
  }

  async append(record: DecisionHistoryRecord): Promise<void> {
    checkDecisionHistoryRecord(record);
    const { id, ...fields } = record;
    try {
      await this.records.insertOne({ _id: id, ...fields, seq: nextSeq() });
    } catch (error) {
      if (isDuplicateKey(error))
        throw new PlatformError("CONFLICT", "A decision history record with this id exists", {
          cause: error,
        });
      throw error;
    }
  }

  async recentFor(userId: string, limit: number): Promise<DecisionHistoryRecord[]> {
    checkDecisionHistoryLimit(limit);
    const docs = await this.records
      .find({ userId }, { sort: { at: -1, seq: -1 }, limit, batchSize: limit })
      .toArray();
    return docs.map(({ _id, seq: _seq, ...fields }) => ({ id: _id, ...fields }));
  }
}
