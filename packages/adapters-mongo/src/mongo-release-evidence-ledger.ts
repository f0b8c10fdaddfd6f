import type { ReleaseEvidenceLedger } from "@keyward/core/ports";
import { type Collection, type Db, type Filter, ObjectId } from "mongodb";
import { checkMongoListLimit } from "./mongo-list-limit.js";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type EvidenceRecord = Awaited<ReturnType<ReleaseEvidenceLedger["record"]>>;
type NewEvidenceRecord = Parameters<ReleaseEvidenceLedger["record"]>[0];
type EvidenceQuery = Parameters<ReleaseEvidenceLedger["list"]>[0];

/** The core's default and most records one `list` answers (the contract suite holds both). */
const DEFAULT_LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 1_000;

/** The ids this ledger answers: an ObjectId's hex form, as `toHexString` writes it. */
const RECORD_ID = /^[0-9a-f]{24}$/;

/** The `release_evidence` collection's document: the record, `_id` = an ObjectId (its id, and the append order). */
export type EvidenceDocument = Omit<EvidenceRecord, "id"> & { _id: ObjectId };

/** Options of the MongoReleaseEvidenceLedger. */
export interface MongoReleaseEvidenceLedgerOptions {
  db: Db;
  /** Collection name (default `release_evidence`). */
  collection?: string;
}

/**
 * ReleaseEvidenceLedger on MongoDB: one document per piece of evidence, appended with `insertOne`
 * and never changed or removed (the adapter sends no update or delete). Its `_id` is a driver
 * ObjectId, answered as its hex form: time first, then a per-process counter, so records of one
 * `recordedAt` read the later appended first. `list` is one `find` on `promptKey` (and the other
 * filters), newest first, served by `promptKey_recordedAt` or, with a version, `promptKey_promptVersion_recordedAt`.
 */
export class MongoReleaseEvidenceLedger implements ReleaseEvidenceLedger {
  private readonly records: Collection<EvidenceDocument>;

  constructor(o: MongoReleaseEvidenceLedgerOptions) {
    this.records = o.db.collection<EvidenceDocument>(o.collection ?? "release_evidence", {
      ignoreUndefined: true,
    });
  }

  /** Creates the indexes `list` reads through (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.records.createIndexes([
      { key: { promptKey: 1, recordedAt: -1, _id: -1 }, name: "promptKey_recordedAt" },
      {
        key: { promptKey: 1, promptVersion: 1, recordedAt: -1, _id: -1 },
        name: "promptKey_promptVersion_recordedAt",
      },
    ]);
  }

  async record(entry: NewEvidenceRecord): Promise<EvidenceRecord> {
    const doc: EvidenceDocument = {
      _id: new ObjectId(),
      kind: entry.kind,
      promptKey: entry.promptKey,
      promptVersion: entry.promptVersion,
      bundleHash: entry.bundleHash,
      recordedBy: entry.recordedBy,
      recordedAt: entry.recordedAt,
      content: structuredClone(entry.content),
      contentHash: entry.contentHash,
    };
    await this.records.insertOne(doc);
    return toRecord(doc);
  }

  async list(query: EvidenceQuery): Promise<EvidenceRecord[]> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    checkMongoListLimit(limit, MAX_LIST_LIMIT);
    // `$eq` throughout: a value is matched as a value, never read as an operator.
    const filter: Filter<EvidenceDocument> = {
      promptKey: { $eq: query.promptKey },
      ...(query.promptVersion === undefined ? {} : { promptVersion: { $eq: query.promptVersion } }),
      ...(query.bundleHash === undefined ? {} : { bundleHash: { $eq: query.bundleHash } }),
      ...(query.kind === undefined ? {} : { kind: { $eq: query.kind } }),
    };
    const docs = await this.records
      .find(filter, { sort: { recordedAt: -1, _id: -1 }, limit, batchSize: limit })
      .toArray();
    return docs.map(toRecord);
  }

  async get(id: string): Promise<EvidenceRecord | undefined> {
    if (typeof id !== "string" || !RECORD_ID.test(id)) return undefined;
    const doc = await this.records.findOne({ _id: new ObjectId(id) });
    return doc ? toRecord(doc) : undefined;
  }
}

function toRecord(doc: EvidenceDocument): EvidenceRecord {
  const { _id, ...fields } = doc;
  return structuredClone({ id: _id.toHexString(), ...fields });
}
