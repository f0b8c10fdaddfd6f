import { checkTopic } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type { ChangeCounters } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `platform_change_counters` collection's document: one topic's counter. */
export interface ChangeCounterDocument {
  /** The topic. */
  _id: string;
  count: number;
}

/** Options of the MongoChangeCounters. */
export interface MongoChangeCountersOptions {
  db: Db;
  /** Collection name (default `platform_change_counters`). */
  collection?: string;
}

/**
 * ChangeCounters on MongoDB, one document per topic. `bump` is one `findOneAndUpdate` `$inc` upsert
 * returning the new count, so concurrent bumps on any instance each get their own value and none is
 * lost; two first bumps of a topic racing to insert its document make one of them fail with a
 * duplicate key, and that one is sent once more (it then finds the document). `read` is one `find`
 * over every topic asked. No TTL: a counter only grows, and one removed would read 0 and could climb
 * back to a value a poller already saw, hiding the changes in between.
 */
export class MongoChangeCounters implements ChangeCounters {
  private readonly counters: Collection<ChangeCounterDocument>;

  constructor(options: MongoChangeCountersOptions) {
    this.counters = options.db.collection<ChangeCounterDocument>(
      options.collection ?? "platform_change_counters",
    );
  }

  /** Nothing beyond `_id` (run at start like every store's). */
  async ensureIndexes(): Promise<void> {}

  async bump(topic: string): Promise<number> {
    checkTopic(topic);
    try {
      return await this.increment(topic);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return await this.increment(topic); // the racing upsert has inserted the document by now
    }
  }

  async read(topics: readonly string[]): Promise<Record<string, number>> {
    if (topics.length === 0) return {};
    const unique = [...new Set(topics)];
    const docs = await this.counters
      .find({ _id: { $in: unique } }, { projection: { count: 1 } })
      .batchSize(unique.length)
      .toArray();
    const counts = new Map(docs.map((doc) => [doc._id, doc.count]));
    // fromEntries defines own keys, so a topic named `__proto__` is an entry like any other.
    return Object.fromEntries(unique.map((topic) => [topic, counts.get(topic) ?? 0]));
  }

  private async increment(topic: string): Promise<number> {
    const doc = await this.counters.findOneAndUpdate(
      { _id: topic },
      { $inc: { count: 1 } },
      { upsert: true, returnDocument: "after", projection: { count: 1 } },
    );
    // An upsert returning the document after it always has one; a server that answers none is refused.
    if (typeof doc?.count !== "number")
      throw new PlatformError("INTERNAL_ERROR", `The change counter of ${topic} came back without a count`);
    return doc.count;
  }
}
