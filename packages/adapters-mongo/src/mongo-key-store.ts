import { PlatformError } from "@keyward/core/errors";
import type { KeyStore, StoredKey } from "@keyward/core/ports";
import type { Collection, Db, MongoServerError } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `keys` collection's document: one key of one purpose, material sealed by the KeyRing. */
export interface KeyDocument {
  purpose: string;
  kid: string;
  algorithm: string;
  /** Sealed by the KeyRing (AES-256-GCM under `platform.keys.encryption-key`); stored as given. */
  material: string;
  publicJwk?: Record<string, unknown>;
  createdAt: number;
  /** `true` on the purpose's active key only (a partial unique index holds "at most one"). */
  current?: true;
  retiredAt?: number;
  verifyUntil?: number;
  /** `verifyUntil` as a Date: the TTL index removes a retired key once it may verify nothing. */
  verifyUntilDate?: Date;
}

/** Options of the MongoKeyStore. */
export interface MongoKeyStoreOptions {
  db: Db;
  /** Collection name (default `keys`). */
  collection?: string;
}

/** What reads return: the key's fields, not the server's `_id`, the active flag or the TTL date. */
const KEY_FIELDS = { _id: 0, current: 0, verifyUntilDate: 0 } as const;

/**
 * KeyStore on MongoDB, durable (so the KeyRing insists on a key-encryption key). One document per key.
 * Invariants and how each is held:
 * - at most one active key per purpose: the active key alone carries `current: true`, and a partial
 *   unique index on `purpose` over `{ current: true }` refuses a second (MongoDB's partial indexes
 *   cannot filter on a missing field, hence the flag rather than "no `retiredAt`");
 * - one winner for the first key: `activeOrCreate` is one `findOneAndUpdate` upsert on `{ purpose,
 *   current: true }` with the candidate in `$setOnInsert` (a duplicate key from a racing upsert is
 *   answered by reading the winner);
 * - one winner per rotation: `rotate` first retires `currentKid` with one `findOneAndUpdate` on
 *   `{ purpose, kid, current: true }`, then inserts the next key; a kid already in the ring undoes the
 *   retirement and answers false. Between the two commands the purpose has no active key: an
 *   instance that makes its first key then wins, and the rotation answers false (a crash there leaves
 *   the ring without an active key, and the next `activeOrCreate` makes one);
 * - kids are unique per purpose (unique index `{ purpose, kid }`); material is stored exactly as given.
 * Commands: `keys` one `find`; `activeOrCreate` one (two when it loses a race); `rotate` two (one when
 * it loses, three when it must undo).
 */
export class MongoKeyStore implements KeyStore {
  /** Keys outlive the process. */
  readonly durable = true;
  private readonly keysCollection: Collection<KeyDocument>;

  constructor(options: MongoKeyStoreOptions) {
    this.keysCollection = options.db.collection<KeyDocument>(options.collection ?? "keys", {
      ignoreUndefined: true,
    });
  }

  /** Creates the kid, one-active-key and TTL indexes (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.keysCollection.createIndexes([
      { key: { purpose: 1, kid: 1 }, name: "purpose_kid_unique", unique: true },
      {
        key: { purpose: 1 },
        name: "purpose_current_unique",
        unique: true,
        partialFilterExpression: { current: true },
      },
      { key: { verifyUntilDate: 1 }, name: "verifyUntil_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async keys(purpose: string, now: number): Promise<StoredKey[]> {
    const docs = await this.keysCollection
      .find(
        { purpose, $or: [{ current: true }, { verifyUntil: { $gt: now } }] },
        { projection: { _id: 0, verifyUntilDate: 0 } },
      )
      .toArray();
    const active = docs.filter((d) => d.current === true);
    const retired = docs
      .filter((d) => d.current !== true)
      .sort((a, b) => (b.retiredAt ?? 0) - (a.retiredAt ?? 0));
    return [...active, ...retired].map(toStoredKey);
  }

  async activeOrCreate(candidate: StoredKey): Promise<StoredKey> {
    const { purpose, retiredAt: _r, verifyUntil: _v, ...fields } = candidate;
    try {
      const active = await this.keysCollection.findOneAndUpdate(
        { purpose, current: true },
        { $setOnInsert: fields as Partial<KeyDocument> },
        { upsert: true, returnDocument: "after", projection: KEY_FIELDS },
      );
      if (active) return toStoredKey(active);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      if (onKid(e)) throw kidTaken(candidate, e);
    }
    // Another instance's upsert won the race (or the server answered nothing): read its key.
    const winner = await this.keysCollection.findOne({ purpose, current: true }, { projection: KEY_FIELDS });
    if (!winner) throw new PlatformError("CONFLICT", `No active key of ${purpose} after a race`);
    return toStoredKey(winner);
  }

  async rotate(
    purpose: string,
    currentKid: string,
    next: StoredKey,
    retire: { at: number; verifyUntil: number },
  ): Promise<boolean> {
    const retired = await this.keysCollection.findOneAndUpdate(
      { purpose, kid: currentKid, current: true },
      {
        $unset: { current: "" },
        $set: {
          retiredAt: retire.at,
          verifyUntil: retire.verifyUntil,
          verifyUntilDate: new Date(retire.verifyUntil),
        },
      },
      { projection: { _id: 1 } },
    );
    if (!retired) return false;
    const { retiredAt: _r, verifyUntil: _v, ...fields } = next;
    try {
      await this.keysCollection.insertOne({ ...fields, purpose, current: true });
      return true;
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      if (onKid(e)) await this.undoRetirement(purpose, currentKid, retire.at);
      return false;
    }
  }

  /** Makes `kid` active again after a rotation whose next key could not be stored (unless another took its place). */
  private async undoRetirement(purpose: string, kid: string, at: number): Promise<void> {
    await this.keysCollection
      .updateOne(
        { purpose, kid, retiredAt: at },
        { $set: { current: true }, $unset: { retiredAt: "", verifyUntil: "", verifyUntilDate: "" } },
      )
      .catch((e: unknown) => {
        if (!isDuplicateKey(e)) throw e;
      });
  }
}

/** True when a duplicate key came from the `{ purpose, kid }` index (not the one-active-key index). */
function onKid(error: MongoServerError): boolean {
  const pattern = (error as { keyPattern?: Record<string, unknown> }).keyPattern;
  return pattern !== undefined ? "kid" in pattern : /purpose_kid_unique/.test(error.message);
}

function kidTaken(candidate: StoredKey, cause: unknown): PlatformError {
  return new PlatformError("CONFLICT", `Key ${candidate.kid} of ${candidate.purpose} exists already`, {
    cause,
  });
}

function toStoredKey(doc: KeyDocument): StoredKey {
  const key: StoredKey = {
    purpose: doc.purpose,
    kid: doc.kid,
    algorithm: doc.algorithm,
    material: doc.material,
    createdAt: doc.createdAt,
  };
  return {
    ...key,
    ...(doc.publicJwk !== undefined && { publicJwk: doc.publicJwk }),
    ...(doc.retiredAt !== undefined && { retiredAt: doc.retiredAt }),
    ...(doc.verifyUntil !== undefined && { verifyUntil: doc.verifyUntil }),
  };
}
