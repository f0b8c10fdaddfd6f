import { PlatformError } from "@keyward/core/errors";
import type { PolicyRevisionRepository } from "@keyward/core/ports";
import { type Collection, type Db, ObjectId } from "mongodb";

// The port's record types, read off its signatures (core exports the port alone: the surface cap).
type PolicyRevision = Awaited<ReturnType<PolicyRevisionRepository["listFor"]>>[number];
type NewPolicyRevision = Parameters<PolicyRevisionRepository["append"]>[0];

/** The core's DEFAULT_POLICY_REVISION_LIMIT and MAX_POLICY_REVISION_LIMIT (the contract suite holds both). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

/** The `policy_revisions` collection's document: the revision, `_id` = an ObjectId (its id, and the append order). */
export type PolicyRevisionDocument = Omit<PolicyRevision, "id"> & { _id: ObjectId };

/** Options of the MongoPolicyRevisionRepository. */
export interface MongoPolicyRevisionRepositoryOptions {
  db: Db;
  /** Collection name (default `policy_revisions`). */
  collection?: string;
}

/**
 * PolicyRevisionRepository on MongoDB: one document per revision, appended with `insertOne` and
 * never changed. Its `_id` is a driver ObjectId (the id answered is its hex form): time first, then
 * a per-process counter, so it orders revisions of one millisecond by append. `listFor` is one
 * `find` on the `policyId_at` index (policyId, then at, policyVersion and _id descending).
 */
export class MongoPolicyRevisionRepository implements PolicyRevisionRepository {
  private readonly revisions: Collection<PolicyRevisionDocument>;

  constructor(o: MongoPolicyRevisionRepositoryOptions) {
    this.revisions = o.db.collection<PolicyRevisionDocument>(o.collection ?? "policy_revisions", {
      ignoreUndefined: true,
    });
  }

  /** Creates the history index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.revisions.createIndexes([
      { key: { policyId: 1, at: -1, policyVersion: -1, _id: -1 }, name: "policyId_at" },
    ]);
  }

  async append(revision: NewPolicyRevision): Promise<PolicyRevision> {
    const doc: PolicyRevisionDocument = {
      _id: new ObjectId(),
      policyId: revision.policyId,
      policyVersion: revision.policyVersion,
      action: revision.action,
      actor: revision.actor,
      at: revision.at,
      changedFields: [...revision.changedFields],
      snapshot: structuredClone(revision.snapshot),
      ...(revision.reason === undefined ? {} : { reason: revision.reason }),
    };
    await this.revisions.insertOne(doc);
    return toRevision(doc);
  }

  async listFor(policyId: string, limit: number = DEFAULT_LIMIT): Promise<PolicyRevision[]> {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      const message = `must be an integer from 1 to ${MAX_LIMIT}`;
      throw new PlatformError("VALIDATION_FAILED", `The request is invalid: limit ${message}`, {
        details: { issues: [{ path: "limit", message }] },
      });
    }
    const docs = await this.revisions
      .find({ policyId })
      .sort({ at: -1, policyVersion: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toRevision);
  }
}

function toRevision(doc: PolicyRevisionDocument): PolicyRevision {
  const { _id, ...fields } = doc;
  return structuredClone({ id: _id.toHexString(), ...fields }) as PolicyRevision;
}
