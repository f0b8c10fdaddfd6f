import { PlatformError } from "@keyward/core/errors";
import type { Clock, IdGenerator, ManagedResourceRepository } from "@keyward/core/ports";
import type { Collection, Db, Filter } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";
import { escapeRegex } from "./mongo-policy-document.js";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type ManagedResource = NonNullable<Awaited<ReturnType<ManagedResourceRepository["findById"]>>>;
type NewManagedResource = Parameters<ManagedResourceRepository["create"]>[0];
type ManagedResourceChanges = Parameters<ManagedResourceRepository["update"]>[2];
type ManagedResourceFilter = Parameters<ManagedResourceRepository["list"]>[0];
type ResourceKey = Parameters<ManagedResourceRepository["findByKey"]>[0];
type ManagedResourcePage = Awaited<ReturnType<ManagedResourceRepository["list"]>>;

/** The core's MANAGED_RESOURCE_MAX_PAGE (the contract suite holds both to it). */
const MAX_PAGE = 200;
const IDENTITY = new Set([
  "id",
  "resourceType",
  "resourceIdentifier",
  "httpMethod",
  "createdAt",
  "updatedAt",
  "version",
]);

/** The `managed_resources` collection's document: the record, `_id` = its id, and lower-case search copies. */
export type ManagedResourceDocument = Omit<ManagedResource, "id"> & {
  _id: string;
  search: { identifier: string; name: string; description: string };
};

/** Options of the MongoManagedResourceRepository. */
export interface MongoManagedResourceRepositoryOptions {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** Collection name (default `managed_resources`). */
  collection?: string;
}

/**
 * ManagedResourceRepository on MongoDB, one document per resource, shared by every instance.
 * - A unique index on resourceType + resourceIdentifier + httpMethod makes the key unique across
 *   instances (two syncs racing: one insert wins, the other is CONFLICT `duplicate`).
 * - `update` is one `findOneAndUpdate` on `{ _id, version }` (compare-and-set); a refused one reads
 *   the version once to tell NOT_FOUND from CONFLICT `version`. A `null` change is an `$unset`.
 * - `list` is one `countDocuments` and one `find` (sort by the key, skip, limit); the keyword is
 *   matched against stored lower-case copies with the text escaped (a literal, never a pattern
 *   from input), as the in-memory default's `toLowerCase().includes`.
 */
export class MongoManagedResourceRepository implements ManagedResourceRepository {
  private readonly resources: Collection<ManagedResourceDocument>;

  constructor(private readonly o: MongoManagedResourceRepositoryOptions) {
    this.resources = o.db.collection<ManagedResourceDocument>(o.collection ?? "managed_resources");
  }

  /** Creates the unique key and the filter indexes (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.resources.createIndexes([
      { key: { resourceType: 1, resourceIdentifier: 1, httpMethod: 1 }, name: "resource_key", unique: true },
      { key: { status: 1 }, name: "status" },
    ]);
  }

  async create(resource: NewManagedResource): Promise<ManagedResource> {
    const now = this.o.clock.now();
    // Only the record's own fields: a stray `id` or `version` in the input is never stored.
    const {
      id: _id,
      version: _v,
      ...fields
    } = structuredClone(resource) as NewManagedResource & {
      id?: unknown;
      version?: unknown;
    };
    const doc = {
      ...fields,
      ...keyOf(resource),
      _id: this.o.ids.id(),
      createdAt: now,
      updatedAt: now,
      version: 1,
      search: searchOf(resource),
    } as ManagedResourceDocument;
    if (doc.resourceType === "METHOD") delete (doc as { httpMethod?: string }).httpMethod;
    try {
      await this.resources.insertOne(doc);
    } catch (e) {
      if (isDuplicateKey(e)) {
        throw new PlatformError("CONFLICT", "A resource with this identifier exists", {
          details: { reason: "duplicate" },
          cause: e,
        });
      }
      throw e;
    }
    return toResource(doc);
  }

  async findById(id: string): Promise<ManagedResource | undefined> {
    const doc = await this.resources.findOne({ _id: id });
    return doc ? toResource(doc) : undefined;
  }

  async findByKey(key: ResourceKey): Promise<ManagedResource | undefined> {
    const k = keyOf(key);
    const query: Record<string, unknown> = {
      resourceType: k.resourceType,
      resourceIdentifier: k.resourceIdentifier,
    };
    query.httpMethod = k.httpMethod ?? { $exists: false };
    const doc = await this.resources.findOne(query as Filter<ManagedResourceDocument>);
    return doc ? toResource(doc) : undefined;
  }

  async findAll(): Promise<ManagedResource[]> {
    return (await this.resources.find({}).sort(SORT).toArray()).map(toResource);
  }

  async list(
    filter: ManagedResourceFilter,
    page: { offset?: number; limit?: number } = {},
  ): Promise<ManagedResourcePage> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? MAX_PAGE;
    if (!Number.isSafeInteger(offset) || offset < 0) throw invalidPage("offset", "must be an integer >= 0");
    if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_PAGE) {
      throw invalidPage("limit", `must be an integer from 0 to ${MAX_PAGE}`);
    }
    const query = queryOf(filter);
    const total = await this.resources.countDocuments(query);
    // `limit(0)` is "no limit" to MongoDB: an empty page is answered without asking.
    const docs =
      limit === 0 ? [] : await this.resources.find(query).sort(SORT).skip(offset).limit(limit).toArray();
    return { items: docs.map(toResource), total };
  }

  async update(
    id: string,
    expectedVersion: number,
    changes: ManagedResourceChanges,
  ): Promise<ManagedResource> {
    const set: Record<string, unknown> = { updatedAt: this.o.clock.now() };
    const unset: Record<string, ""> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (IDENTITY.has(field) || field === "search" || field === "_id" || value === undefined) continue;
      if (value === null) unset[field] = "";
      else set[field] = structuredClone(value);
    }
    if (typeof set.friendlyName === "string") set["search.name"] = set.friendlyName.toLowerCase();
    if (typeof set.description === "string") set["search.description"] = set.description.toLowerCase();
    const stored = await this.resources.findOneAndUpdate(
      { _id: id, version: expectedVersion },
      { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}), $inc: { version: 1 } },
      { returnDocument: "after" },
    );
    if (stored) return toResource(stored);
    const current = await this.resources.findOne({ _id: id }, { projection: { version: 1 } });
    if (!current) throw new PlatformError("NOT_FOUND", "No such resource");
    throw new PlatformError("CONFLICT", "The resource changed meanwhile", {
      details: { reason: "version", expectedVersion, currentVersion: current.version },
    });
  }
}

const SORT = { resourceType: 1, resourceIdentifier: 1, httpMethod: 1 } as const;

function keyOf(key: ResourceKey): ResourceKey {
  return key.resourceType === "URL"
    ? { resourceType: "URL", resourceIdentifier: key.resourceIdentifier, httpMethod: key.httpMethod ?? "ANY" }
    : { resourceType: "METHOD", resourceIdentifier: key.resourceIdentifier };
}

function searchOf(r: NewManagedResource): ManagedResourceDocument["search"] {
  return {
    identifier: r.resourceIdentifier.toLowerCase(),
    name: r.friendlyName.toLowerCase(),
    description: r.description.toLowerCase(),
  };
}

function queryOf(filter: ManagedResourceFilter): Filter<ManagedResourceDocument> {
  const query: Record<string, unknown> = {};
  if (filter.status !== undefined) query.status = filter.status;
  if (filter.resourceType !== undefined) query.resourceType = filter.resourceType;
  if (filter.serviceOwner !== undefined) query.serviceOwner = filter.serviceOwner;
  if (filter.text) {
    const text = { $regex: escapeRegex(filter.text.toLowerCase()) };
    query.$or = [{ "search.identifier": text }, { "search.name": text }, { "search.description": text }];
  }
  return query as Filter<ManagedResourceDocument>;
}

function toResource(doc: ManagedResourceDocument): ManagedResource {
  const { _id, search: _search, ...fields } = doc;
  return structuredClone({ ...fields, id: _id }) as ManagedResource;
}

function invalidPage(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The page is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
