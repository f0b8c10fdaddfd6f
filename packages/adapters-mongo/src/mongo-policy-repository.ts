import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  IdGenerator,
  NewPolicy,
  Policy,
  PolicyChanges,
  PolicyFilter,
  PolicyRepository,
} from "@keyward/core/ports";
import type { Collection, Db, Filter } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";
import {
  counterId,
  escapeRegex,
  type PolicyCounterDocument,
  type PolicyDocument,
  policyFields,
  searchKeysOf,
  toPolicy,
} from "./mongo-policy-document.js";

/** Options of the MongoPolicyRepository. */
export interface MongoPolicyRepositoryOptions {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** At most this many policies; creating one more is refused with CONFLICT. Default 10_000. */
  maxPolicies?: number;
  /** Collection of the policies (default `policies`). */
  collection?: string;
  /** Collection of the counter document (default `policy_counters`). */
  countersCollection?: string;
}

/**
 * PolicyRepository (the PAP's store) on MongoDB, shared by every instance.
 * - One counter document holds `seq` (the last createdSeq handed out: monotonic, never reused),
 *   `count` (policies stored, for `maxPolicies`) and `changes`, what `changeCount()` answers with one
 *   `findOne` by `_id` (every instance polls it every 2 s).
 * - Every write bumps `changes` with one `$inc` AFTER the write, so an instance that sees the count
 *   move and reloads finds the change. A crash (or lost connection) between the two leaves the write
 *   stored but the count unmoved: other instances keep deciding on what they loaded until the next
 *   change moves the count, or they restart; the writing instance reloads itself as usual.
 * - `create` reserves a slot and a createdSeq in one conditional `$inc` upsert on the counter
 *   (`count < maxPolicies`; a full store fails with a duplicate key, which is CONFLICT), inserts, then
 *   bumps `changes`: 3 commands. A crash after the reservation leaves a slot counted that holds no
 *   policy (the bound is then one lower) and a createdSeq never used (allowed).
 * - `update` is one `findOneAndUpdate` on `{ _id, version }` then the bump: 2 commands (a refused one
 *   reads the version once to tell NOT_FOUND from CONFLICT). `delete` is one `deleteOne`, then one
 *   `$inc` of `changes` and `-1` of `count` when it removed something.
 * - `findById` and `findAll` are one `find` each; `findAll` sorts by priority, then createdSeq, and
 *   matches `text` against stored lower-case copies of name, description and target identifiers
 *   (the in-memory default's `toLowerCase().includes`, exactly).
 */
export class MongoPolicyRepository implements PolicyRepository {
  private readonly policies: Collection<PolicyDocument>;
  private readonly counters: Collection<PolicyCounterDocument>;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly maxPolicies: number;

  constructor(options: MongoPolicyRepositoryOptions) {
    this.policies = options.db.collection<PolicyDocument>(options.collection ?? "policies");
    this.counters = options.db.collection<PolicyCounterDocument>(
      options.countersCollection ?? "policy_counters",
    );
    this.clock = options.clock;
    this.ids = options.ids;
    this.maxPolicies = options.maxPolicies ?? 10_000;
    if (!Number.isInteger(this.maxPolicies) || this.maxPolicies < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxPolicies must be a positive integer");
    }
  }

  /** Creates the evaluation order's index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.policies.createIndexes([{ key: { priority: 1, createdSeq: 1 }, name: "priority_createdSeq" }]);
  }

  async create(policy: NewPolicy): Promise<Policy> {
    const createdSeq = await this.reserve();
    const now = this.clock.now();
    const doc: PolicyDocument = {
      _id: this.ids.id(),
      ...policyFields(policy),
      createdSeq,
      createdAt: now,
      updatedAt: now,
      version: 1,
      search: searchKeysOf(policy),
    };
    try {
      await this.policies.insertOne(doc);
    } catch (e) {
      await this.counters.updateOne({ _id: counterId }, { $inc: { count: -1 } });
      if (isDuplicateKey(e)) throw new PlatformError("CONFLICT", "The policy id is taken", { cause: e });
      throw e;
    }
    await this.counters.updateOne({ _id: counterId }, { $inc: { changes: 1 } });
    return toPolicy(doc);
  }

  async findById(id: string): Promise<Policy | undefined> {
    const doc = await this.policies.findOne({ _id: id });
    return doc ? toPolicy(doc) : undefined;
  }

  async findAll(filter: PolicyFilter = {}): Promise<Policy[]> {
    const query: Record<string, unknown> = {};
    if (filter.source !== undefined) query.source = filter.source;
    if (filter.approvalStatus !== undefined) query.approvalStatus = filter.approvalStatus;
    if (filter.isActive !== undefined) query.isActive = filter.isActive;
    if (filter.targetType !== undefined) query["targets.targetType"] = filter.targetType;
    if (filter.text) {
      const text = { $regex: escapeRegex(filter.text.toLowerCase()) };
      query.$or = [{ "search.name": text }, { "search.description": text }, { "search.targets": text }];
    }
    const docs = await this.policies
      .find(query as Filter<PolicyDocument>)
      .sort({ priority: 1, createdSeq: 1 })
      .toArray();
    return docs.map(toPolicy);
  }

  async update(id: string, expectedVersion: number, changes: PolicyChanges): Promise<Policy> {
    const set = changedFields(changes);
    const stored = await this.policies.findOneAndUpdate(
      { _id: id, version: expectedVersion },
      { $set: { ...set, updatedAt: this.clock.now() }, $inc: { version: 1 } },
      { returnDocument: "after" },
    );
    if (!stored) {
      const current = await this.policies.findOne({ _id: id }, { projection: { version: 1 } });
      if (!current) throw new PlatformError("NOT_FOUND", "No such policy");
      throw new PlatformError("CONFLICT", "The policy changed concurrently", {
        details: { expectedVersion, currentVersion: current.version },
      });
    }
    await this.counters.updateOne({ _id: counterId }, { $inc: { changes: 1 } });
    return toPolicy(stored);
  }

  async delete(id: string): Promise<boolean> {
    const removed = await this.policies.deleteOne({ _id: id });
    if (removed.deletedCount !== 1) return false;
    await this.counters.updateOne({ _id: counterId }, { $inc: { changes: 1, count: -1 } });
    return true;
  }

  async changeCount(): Promise<number> {
    const counter = await this.counters.findOne({ _id: counterId }, { projection: { changes: 1 } });
    return counter?.changes ?? 0;
  }

  // A slot under maxPolicies and the next createdSeq, in one step.
  private async reserve(): Promise<number> {
    try {
      const counter = await this.counters.findOneAndUpdate(
        { _id: counterId, count: { $lt: this.maxPolicies } },
        { $inc: { seq: 1, count: 1 } },
        { upsert: true, returnDocument: "after" },
      );
      if (counter) return counter.seq;
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    throw new PlatformError("CONFLICT", "The policy store is full", {
      details: { maxPolicies: this.maxPolicies },
    });
  }
}

// The $set of an update: the known, defined fields, copied, plus the search keys they change.
function changedFields(changes: PolicyChanges): Partial<PolicyDocument> & Record<string, unknown> {
  const defined = Object.fromEntries(
    Object.entries(changes).filter(([, v]) => v !== undefined),
  ) as PolicyChanges;
  const set: Record<string, unknown> = { ...policyFields(defined) };
  for (const key of Object.keys(set)) if (set[key] === undefined) delete set[key];
  const search = searchKeysOf(defined);
  if (defined.name !== undefined) set["search.name"] = search.name;
  if (defined.description !== undefined) set["search.description"] = search.description;
  if (defined.targets !== undefined) set["search.targets"] = search.targets;
  return set;
}
