import { checkInstanceHeartbeat } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type { InstanceHeartbeatStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";

// The port's record type, read off its signature (core exports the port alone: the surface cap).
type InstanceHeartbeat = Parameters<InstanceHeartbeatStore["beat"]>[0];

/** The `prompt_instance_heartbeats` collection's document: one per instance, `_id` = instance id. */
export type InstanceHeartbeatDocument = Omit<InstanceHeartbeat, "instanceId"> & { _id: string };

/** Options of the MongoInstanceHeartbeatStore. */
export interface MongoInstanceHeartbeatStoreOptions {
  db: Db;
  /** Collection name (default `prompt_instance_heartbeats`). */
  collection?: string;
}

/**
 * InstanceHeartbeatStore on MongoDB. A beat is one `replaceOne` upsert by `_id`, a single-document
 * write: a reader sees one whole beat, and concurrent beats of one instance leave the last applied.
 * `list` is one `find` sorted by `_id`; `prune` one `deleteMany` on `at`, served by the `at` index.
 */
export class MongoInstanceHeartbeatStore implements InstanceHeartbeatStore {
  private readonly docs: Collection<InstanceHeartbeatDocument>;

  constructor(o: MongoInstanceHeartbeatStoreOptions) {
    this.docs = o.db.collection<InstanceHeartbeatDocument>(o.collection ?? "prompt_instance_heartbeats");
  }

  /** Creates the index `prune` reads (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.docs.createIndexes([{ key: { at: 1 }, name: "at" }]);
  }

  async beat(heartbeat: InstanceHeartbeat): Promise<void> {
    const { instanceId, ...fields } = checkInstanceHeartbeat(heartbeat);
    // A checked string, so a plain equality: the upsert's insert takes its `_id` from it.
    await this.docs.replaceOne({ _id: instanceId }, fields, { upsert: true });
  }

  async list(): Promise<InstanceHeartbeat[]> {
    const docs = await this.docs.find({}, { sort: { _id: 1 } }).toArray();
    return docs.map(({ _id, startedAt, at, serving, selector }) =>
      selector === undefined
        ? { instanceId: _id, startedAt, at, serving }
        : { instanceId: _id, startedAt, at, serving, selector },
    );
  }

  async prune(olderThan: number): Promise<number> {
    if (!(typeof olderThan === "number" && Number.isSafeInteger(olderThan) && olderThan >= 0))
      throw new PlatformError(
        "VALIDATION_FAILED",
        "olderThan must be a non-negative integer (epoch milliseconds)",
        {
          details: { fields: ["olderThan"] },
        },
      );
    return (await this.docs.deleteMany({ at: { $lt: olderThan } })).deletedCount;
  }
}
