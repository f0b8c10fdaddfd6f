import { PlatformError } from "@keyward/core/errors";
import type { SealedEvidenceStore } from "@keyward/core/ports";
import { type Collection, type Db, type Filter, ObjectId } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";
import { checkMongoListLimit } from "./mongo-list-limit.js";
import { checkEntry, checkNonNegative, MAX_EVIDENCE_LIMIT } from "./mongo-sealed-evidence-checks.js";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type ChainEntry = Parameters<SealedEvidenceStore["append"]>[0];
type DecisionRecord = Parameters<SealedEvidenceStore["putRecord"]>[0];
type EvidenceCheckpoint = Parameters<SealedEvidenceStore["putCheckpoint"]>[0];

/** A `security_decision_records` document: the record, `_id` = its id, `order` its store order. */
export type DecisionRecordDocument = Omit<DecisionRecord, "id"> & { _id: string; order: ObjectId };
/** A `sealed_evidence_chain` document: the entry, `packageId` for a PACKAGE entry (unique). */
export type ChainEntryDocument = ChainEntry & { _id?: ObjectId; packageId?: string };
/** A `sealed_evidence_checkpoints` document. */
export type CheckpointDocument = EvidenceCheckpoint & { _id?: ObjectId };

/** Options of the MongoSealedEvidenceStore. */
export interface MongoSealedEvidenceStoreOptions {
  db: Db;
  /** Collection names (defaults `security_decision_records`, `sealed_evidence_chain`, `sealed_evidence_checkpoints`). */
  collections?: { records?: string; chain?: string; checkpoints?: string };
}

/**
 * SealedEvidenceStore on MongoDB, three collections. A chain slot is claimed by one `insertOne`
 * refused by the unique `instanceId_sequence` index when taken (11000 → CONFLICT: the compare-and-set
 * two writers of one chain race on); the partial unique `packageId` index refuses a package sealed
 * twice. Thinning is one `updateOne` with `$unset` (retention: header and payload; erasure: the
 * wrapped key). Records and checkpoints are one document each, keyed by id and by chain and sequence.
 */
export class MongoSealedEvidenceStore implements SealedEvidenceStore {
  private readonly records: Collection<DecisionRecordDocument>;
  private readonly chain: Collection<ChainEntryDocument>;
  private readonly marks: Collection<CheckpointDocument>;

  constructor(o: MongoSealedEvidenceStoreOptions) {
    const names = o.collections ?? {};
    const options = { ignoreUndefined: true };
    this.records = o.db.collection(names.records ?? "security_decision_records", options);
    this.chain = o.db.collection(names.chain ?? "sealed_evidence_chain", options);
    this.marks = o.db.collection(names.checkpoints ?? "sealed_evidence_checkpoints", options);
  }

  /** Creates the indexes every operation reads through (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.records.createIndexes([{ key: { at: -1, order: -1 }, name: "at_order" }]);
    await this.chain.createIndexes([
      { key: { instanceId: 1, sequence: 1 }, name: "instanceId_sequence", unique: true },
      {
        key: { packageId: 1 },
        name: "packageId",
        unique: true,
        partialFilterExpression: { kind: "PACKAGE" },
      },
      { key: { "header.at": 1, packageId: 1 }, name: "header_at_packageId" },
      { key: { "header.metadata.userId": 1 }, name: "header_userId" },
    ]);
    await this.marks.createIndexes([
      { key: { instanceId: 1, sequence: 1 }, name: "instanceId_sequence", unique: true },
    ]);
  }

  async putRecord(record: DecisionRecord): Promise<void> {
    const { id, ...fields } = record;
    await conflictOnDuplicate("A decision record with this id exists", () =>
      this.records.insertOne({ _id: id, ...structuredClone(fields), order: new ObjectId() }),
    );
  }

  async record(id: string): Promise<DecisionRecord | undefined> {
    const doc = await this.records.findOne({ _id: { $eq: id } });
    return doc === null ? undefined : toRecord(doc);
  }

  async recentRecords(limit: number): Promise<DecisionRecord[]> {
    checkMongoListLimit(limit, MAX_EVIDENCE_LIMIT);
    const docs = await this.records.find({}, { sort: { at: -1, order: -1 }, limit }).toArray();
    return docs.map(toRecord);
  }

  async pruneRecords(before: number): Promise<number> {
    checkNonNegative(before, "before");
    return (await this.records.deleteMany({ at: { $lt: before } })).deletedCount;
  }

  async append(entry: ChainEntry): Promise<void> {
    checkEntry(entry);
    const doc: ChainEntryDocument = {
      ...structuredClone(entry),
      ...(entry.kind === "PACKAGE" ? { packageId: entry.packageIds[0]! } : {}),
    };
    await conflictOnDuplicate("This slot of the chain is taken, or the package is sealed", () =>
      this.chain.insertOne(doc),
    );
  }

  async head(instanceId: string): Promise<ChainEntry | undefined> {
    const doc = await this.chain.findOne({ instanceId: { $eq: instanceId } }, { sort: { sequence: -1 } });
    return doc === null ? undefined : toEntry(doc);
  }

  async entries(instanceId: string, afterSequence: number, limit: number): Promise<ChainEntry[]> {
    checkMongoListLimit(limit, MAX_EVIDENCE_LIMIT);
    checkNonNegative(afterSequence, "afterSequence");
    const filter = { instanceId: { $eq: instanceId }, sequence: { $gt: afterSequence } };
    return (await this.chain.find(filter, { sort: { sequence: 1 }, limit }).toArray()).map(toEntry);
  }

  async chains(): Promise<string[]> {
    const groups = await this.chain
      .aggregate<{ _id: string }>([{ $group: { _id: "$instanceId" } }, { $sort: { _id: 1 } }])
      .toArray();
    return groups.map((g) => g._id);
  }

  async packageEntry(packageId: string): Promise<ChainEntry | undefined> {
    const doc = await this.chain.findOne({ packageId: { $eq: packageId }, kind: "PACKAGE" });
    return doc === null ? undefined : toEntry(doc);
  }

  async keptPackages(
    before: number,
    limit: number,
    after?: { readonly at: number; readonly id: string },
  ): Promise<ChainEntry[]> {
    checkNonNegative(before, "before");
    checkMongoListLimit(limit, MAX_EVIDENCE_LIMIT);
    const filter: Filter<ChainEntryDocument> = { kind: "PACKAGE", "header.at": { $lt: before } };
    if (after !== undefined)
      filter.$or = [
        { "header.at": { $gt: after.at } },
        { "header.at": { $eq: after.at }, packageId: { $gt: after.id } },
      ];
    const docs = await this.chain.find(filter, { sort: { "header.at": 1, packageId: 1 }, limit }).toArray();
    return docs.map(toEntry);
  }

  async readablePackagesOf(userId: string, limit: number): Promise<ChainEntry[]> {
    checkMongoListLimit(limit, MAX_EVIDENCE_LIMIT);
    const filter = { "header.metadata.userId": { $eq: userId }, "payload.wrappedKey": { $exists: true } };
    return (await this.chain.find(filter, { limit }).toArray()).map(toEntry);
  }

  async dropPackage(packageId: string): Promise<boolean> {
    const filter = { packageId: { $eq: packageId }, kind: "PACKAGE", header: { $exists: true } };
    const result = await this.chain.updateOne(filter as Filter<ChainEntryDocument>, {
      $unset: { header: "", payload: "" },
    });
    return result.modifiedCount === 1;
  }

  async destroyPayloadKey(packageId: string): Promise<boolean> {
    const filter = { packageId: { $eq: packageId }, "payload.wrappedKey": { $exists: true } };
    const result = await this.chain.updateOne(filter as Filter<ChainEntryDocument>, {
      $unset: { "payload.wrappedKey": "" },
    });
    return result.modifiedCount === 1;
  }

  async putCheckpoint(checkpoint: EvidenceCheckpoint): Promise<void> {
    await conflictOnDuplicate("The chain has a checkpoint at this sequence", () =>
      this.marks.insertOne({ ...checkpoint }),
    );
  }

  async checkpoints(instanceId: string): Promise<EvidenceCheckpoint[]> {
    const docs = await this.marks
      .find({ instanceId: { $eq: instanceId } }, { sort: { sequence: 1 } })
      .toArray();
    return docs.map(({ _id, ...checkpoint }) => checkpoint);
  }
}

async function conflictOnDuplicate(message: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isDuplicateKey(error)) throw new PlatformError("CONFLICT", message, { cause: error });
    throw error;
  }
}

function toRecord({ _id, order: _order, ...fields }: DecisionRecordDocument): DecisionRecord {
  return { id: _id, ...fields };
}

function toEntry({ _id, packageId: _packageId, ...entry }: ChainEntryDocument): ChainEntry {
  return entry;
}
