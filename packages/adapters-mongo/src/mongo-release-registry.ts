import { checkReleaseHead } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type { ReleaseRegistry } from "@keyward/core/ports";
import { type Collection, type Db, type Filter, MongoServerError, ObjectId } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";
import { checkMongoListLimit } from "./mongo-list-limit.js";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type ReleaseScopeHead = Awaited<ReturnType<ReleaseRegistry["head"]>>;
type HeadContent = Parameters<ReleaseRegistry["replaceHead"]>[2];
type ReleaseHistoryEntry = Awaited<ReturnType<ReleaseRegistry["history"]>>[number];
type NewReleaseHistoryEntry = Parameters<ReleaseRegistry["appendHistory"]>[0];
type ReleaseHistoryQuery = NonNullable<Parameters<ReleaseRegistry["history"]>[0]>;
type RollbackExecution = Parameters<ReleaseRegistry["recordExecution"]>[0];

/** The core's default and most history entries one `history` call answers (the contract suite holds both). */
const DEFAULT_HISTORY_LIMIT = 100;
const MAX_HISTORY_LIMIT = 1_000;

/** The `release_heads` collection's document: one per scope, `_id` = the scope, replaced by compare-and-set. */
export interface ReleaseHeadDocument {
  _id: string;
  revision: number;
  releases: ReleaseScopeHead["releases"];
  openExecutions: ReleaseScopeHead["openExecutions"];
}

/**
 * The `release_heads` collection's validator: at most one ACTIVE release per prompt key and template
 * in a head (rule 1), held by the database as well as by `checkReleaseHead`, so no other writer (an
 * older build, a script, a hand edit) can store two. A unique index cannot hold it: a multikey
 * unique index compares documents, never the elements of one document's array.
 */
export const RELEASE_HEAD_VALIDATOR = {
  $expr: {
    $let: {
      vars: {
        active: {
          $map: {
            input: {
              $filter: { input: { $ifNull: ["$releases", []] }, cond: { $eq: ["$$this.status", "ACTIVE"] } },
            },
            in: ["$$this.promptKey", "$$this.templateKey"],
          },
        },
      },
      in: { $eq: [{ $size: "$$active" }, { $size: { $setUnion: ["$$active", []] } }] },
    },
  },
} as const;

/** MongoDB's "a document failed the collection's validator", and "the collection exists". */
const DOCUMENT_VALIDATION_FAILURE = 121;
const NAMESPACE_EXISTS = 48;

/** The `release_history` collection's document: the entry, `_id` = an ObjectId (its id, and the append order). */
export type ReleaseHistoryDocument = Omit<ReleaseHistoryEntry, "id"> & { _id: ObjectId };

/** The `release_executions` collection's document: the execution's latest state, `_id` = its key. */
export type RollbackExecutionDocument = Omit<RollbackExecution, "executionKey"> & { _id: string };

/** Options of the MongoReleaseRegistry. */
export interface MongoReleaseRegistryOptions {
  db: Db;
  /** Collection names (defaults `release_heads`, `release_history`, `release_executions`). */
  collections?: { heads?: string; history?: string; executions?: string };
}

/**
 * ReleaseRegistry on MongoDB, without multi-document transactions. A scope's head is one document
 * (`_id` = scope): the first is written with `insertOne` (a concurrent first write is a duplicate key:
 * that writer lost), every later one with one `updateOne` filtered on `{ _id, revision: expected }`,
 * so of concurrent writers of one revision exactly one matches, and a reader sees the old head or the
 * new one, never a mix. The head is checked (`checkReleaseHead`) before it is sent: one ACTIVE release
 * per prompt key and template is held by that check and the single-document write together. History
 * entries are appended (`insertOne`, never updated); executions are replaced by key (an upsert).
 */
export class MongoReleaseRegistry implements ReleaseRegistry {
  private readonly headDocs: Collection<ReleaseHeadDocument>;
  private readonly historyDocs: Collection<ReleaseHistoryDocument>;
  private readonly executionDocs: Collection<RollbackExecutionDocument>;

  private readonly db: Db;

  constructor(o: MongoReleaseRegistryOptions) {
    this.db = o.db;
    const names = o.collections ?? {};
    const options = { ignoreUndefined: true };
    this.headDocs = o.db.collection<ReleaseHeadDocument>(names.heads ?? "release_heads", options);
    this.historyDocs = o.db.collection<ReleaseHistoryDocument>(names.history ?? "release_history", options);
    this.executionDocs = o.db.collection<RollbackExecutionDocument>(
      names.executions ?? "release_executions",
      options,
    );
  }

  /**
   * Creates the heads collection with its validator when it is missing, and the history indexes
   * (idempotent; run at start). Heads and executions are read by `_id`.
   */
  async ensureIndexes(): Promise<void> {
    try {
      await this.db.createCollection(this.headDocs.collectionName, { validator: RELEASE_HEAD_VALIDATOR });
    } catch (error) {
      // 48 NamespaceExists: created by an earlier start (or another instance starting now).
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
    }
    await this.historyDocs.createIndexes([
      { key: { at: -1, _id: -1 }, name: "at" },
      { key: { registryScope: 1, at: -1, _id: -1 }, name: "registryScope_at" },
      {
        key: { registryScope: 1, promptVersion: 1, at: -1, _id: -1 },
        name: "registryScope_promptVersion_at",
      },
    ]);
  }

  async head(registryScope: string): Promise<ReleaseScopeHead> {
    const doc = await this.headDocs.findOne({ _id: { $eq: registryScope } });
    return doc ? toHead(doc) : { registryScope, revision: 0, releases: [], openExecutions: [] };
  }

  async heads(): Promise<ReleaseScopeHead[]> {
    return (await this.headDocs.find({}, { sort: { _id: 1 } }).toArray()).map(toHead);
  }

  async replaceHead(
    registryScope: string,
    expectedRevision: number,
    next: HeadContent,
  ): Promise<ReleaseScopeHead | undefined> {
    checkReleaseHead(registryScope, next);
    const revision = expectedRevision + 1;
    const content = {
      releases: structuredClone(next.releases),
      openExecutions: structuredClone(next.openExecutions),
    };
    try {
      if (!(await this.writeHead(registryScope, expectedRevision, { revision, ...content })))
        return undefined;
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === DOCUMENT_VALIDATION_FAILURE)) throw error;
      const message = `the collection's validator refused the head of scope ${registryScope} (at most one ACTIVE release per prompt key and template)`;
      throw new PlatformError("VALIDATION_FAILED", message, {
        details: { fields: ["releases"] },
        cause: error,
      });
    }
    return { registryScope, revision, ...structuredClone(content) };
  }

  /** One compare-and-set write: the first head by insert, a later one by an update on the revision. */
  private async writeHead(
    registryScope: string,
    expectedRevision: number,
    fields: Omit<ReleaseHeadDocument, "_id">,
  ): Promise<boolean> {
    if (expectedRevision === 0) {
      try {
        await this.headDocs.insertOne({ _id: registryScope, ...fields });
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    }
    const filter: Filter<ReleaseHeadDocument> = {
      _id: { $eq: registryScope },
      revision: { $eq: expectedRevision },
    };
    return (await this.headDocs.updateOne(filter, { $set: fields })).matchedCount === 1;
  }

  async appendHistory(entry: NewReleaseHistoryEntry): Promise<ReleaseHistoryEntry> {
    const doc: ReleaseHistoryDocument = { _id: new ObjectId(), ...historyFields(entry) };
    await this.historyDocs.insertOne(doc);
    return toHistoryEntry(doc);
  }

  async history(query: ReleaseHistoryQuery = {}): Promise<ReleaseHistoryEntry[]> {
    const limit = query.limit ?? DEFAULT_HISTORY_LIMIT;
    checkMongoListLimit(limit, MAX_HISTORY_LIMIT);
    // `$eq` throughout: a value is matched as a value, never read as an operator.
    const filter: Filter<ReleaseHistoryDocument> = {
      ...(query.registryScope === undefined ? {} : { registryScope: { $eq: query.registryScope } }),
      ...(query.promptVersion === undefined ? {} : { promptVersion: { $eq: query.promptVersion } }),
    };
    const docs = await this.historyDocs
      .find(filter, { sort: { at: -1, _id: -1 }, limit, batchSize: limit })
      .toArray();
    return docs.map(toHistoryEntry);
  }

  async execution(executionKey: string): Promise<RollbackExecution | undefined> {
    const doc = await this.executionDocs.findOne({ _id: { $eq: executionKey } });
    if (!doc) return undefined;
    const { _id, ...fields } = doc;
    return { executionKey: _id, ...fields };
  }

  async recordExecution(execution: RollbackExecution): Promise<void> {
    const { executionKey, ...fields } = structuredClone(execution);
    // A plain equality: the upsert's insert takes its `_id` from it.
    await this.executionDocs.replaceOne({ _id: executionKey }, fields, { upsert: true });
  }
}

function toHead(doc: ReleaseHeadDocument): ReleaseScopeHead {
  return {
    registryScope: doc._id,
    revision: doc.revision,
    releases: doc.releases,
    openExecutions: doc.openExecutions,
  };
}

function toHistoryEntry(doc: ReleaseHistoryDocument): ReleaseHistoryEntry {
  const { _id, ...fields } = doc;
  return structuredClone({ id: _id.toHexString(), ...fields });
}

// The entry's own fields only: an `id` (or `_id`) smuggled into the input is not stored.
function historyFields(e: NewReleaseHistoryEntry): NewReleaseHistoryEntry {
  return structuredClone({
    kind: e.kind,
    registryScope: e.registryScope,
    promptKey: e.promptKey,
    promptVersion: e.promptVersion,
    ...(e.fromStatus === undefined ? {} : { fromStatus: e.fromStatus }),
    ...(e.toStatus === undefined ? {} : { toStatus: e.toStatus }),
    ...(e.requestedStatus === undefined ? {} : { requestedStatus: e.requestedStatus }),
    blockers: [...e.blockers],
    actor: e.actor,
    rationale: e.rationale,
    ...(e.executionKey === undefined ? {} : { executionKey: e.executionKey }),
    ...(e.canary === undefined ? {} : { canary: e.canary }),
    at: e.at,
  });
}
