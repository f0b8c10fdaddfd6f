import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  NewPasskeyCredential,
  PasskeyCredential,
  PasskeyCredentialRepository,
  PasskeyDeviceType,
} from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `passkey_credentials` collection's document: the credential, `_id` = its credential id. */
export interface PasskeyCredentialDocument {
  _id: string;
  userId: string;
  userHandle: string;
  /** COSE public key, base64url: public by nature, so kept as it is. */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  aaguid: string;
  label: string;
  createdAt: number;
  /** Absent until the first sign-in with the credential. */
  lastUsedAt?: number;
  version: number;
}

/** The `passkey_user_handles` collection's document: a user's WebAuthn handle, `_id` = the user id. */
export interface PasskeyUserHandleDocument {
  _id: string;
  /** Unique: one handle belongs to one user. */
  handle: string;
}

/** Options of the MongoPasskeyCredentialRepository. */
export interface MongoPasskeyCredentialRepositoryOptions {
  db: Db;
  /** Stamps `createdAt`. */
  clock: Clock;
  /** Credentials collection name (default `passkey_credentials`). */
  collection?: string;
  /** User-handle collection name (default `passkey_user_handles`). */
  handleCollection?: string;
}

/**
 * PasskeyCredentialRepository on MongoDB. Invariants and how each holds without transactions:
 * - a credential id is unique across users: it is the `_id`, so a second `create` is 11000 → `CONFLICT`;
 * - one handle per user and one user per handle: the handle document's `_id` is the user id and
 *   `handle_unique` indexes the handle; `saveUserHandle` is one upsert with `$setOnInsert`, so a
 *   concurrent first assignment returns the winner's handle and another user's handle is `CONFLICT`;
 * - the counter moves by compare-and-set: one `findOneAndUpdate` on `{ _id, version }`.
 * Commands per method: one each; `updateCounter` counts once more only after a failed CAS (to tell
 * `NOT_FOUND` from `CONFLICT`), `saveUserHandle` reads once more only after losing an insert race.
 */
export class MongoPasskeyCredentialRepository implements PasskeyCredentialRepository {
  private readonly credentials: Collection<PasskeyCredentialDocument>;
  private readonly handles: Collection<PasskeyUserHandleDocument>;
  private readonly clock: Clock;

  constructor(options: MongoPasskeyCredentialRepositoryOptions) {
    this.credentials = options.db.collection<PasskeyCredentialDocument>(
      options.collection ?? "passkey_credentials",
      { ignoreUndefined: true },
    );
    this.handles = options.db.collection<PasskeyUserHandleDocument>(
      options.handleCollection ?? "passkey_user_handles",
    );
    this.clock = options.clock;
  }

  /** Creates the indexes of both collections (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.credentials.createIndexes([{ key: { userId: 1, createdAt: 1 }, name: "userId_createdAt" }]);
    await this.handles.createIndexes([{ key: { handle: 1 }, name: "handle_unique", unique: true }]);
  }

  async create(input: NewPasskeyCredential): Promise<PasskeyCredential> {
    const doc: PasskeyCredentialDocument = {
      _id: input.id,
      userId: input.userId,
      userHandle: input.userHandle,
      publicKey: input.publicKey,
      counter: input.counter,
      transports: [...input.transports],
      deviceType: input.deviceType,
      backedUp: input.backedUp,
      aaguid: input.aaguid,
      label: input.label,
      createdAt: this.clock.now(),
      version: 1,
    };
    const created = toCredential(doc);
    try {
      await this.credentials.insertOne(doc);
    } catch (e) {
      if (isDuplicateKey(e)) {
        throw new PlatformError("CONFLICT", "This passkey is already registered", { cause: e });
      }
      throw e;
    }
    return created;
  }

  async findById(id: string): Promise<PasskeyCredential | undefined> {
    const doc = await this.credentials.findOne({ _id: id });
    return doc ? toCredential(doc) : undefined;
  }

  async listByUser(userId: string): Promise<PasskeyCredential[]> {
    const docs = await this.credentials.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toCredential);
  }

  async findUserHandle(userId: string): Promise<string | undefined> {
    return (await this.handles.findOne({ _id: userId }))?.handle;
  }

  async saveUserHandle(userId: string, handle: string): Promise<string> {
    try {
      const stored = await this.handles.findOneAndUpdate(
        { _id: userId },
        { $setOnInsert: { handle } },
        { upsert: true, returnDocument: "after" },
      );
      if (stored) return stored.handle;
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      if (e.keyPattern?.handle !== undefined) {
        throw new PlatformError("CONFLICT", "This user handle belongs to another user", { cause: e });
      }
      // Lost the insert race for this user: the winner's handle is the user's handle.
    }
    const existing = await this.findUserHandle(userId);
    if (existing === undefined) throw new PlatformError("CONFLICT", "User handle could not be saved");
    return existing;
  }

  async userIdForHandle(handle: string): Promise<string | undefined> {
    return (await this.handles.findOne({ handle }))?._id;
  }

  async updateCounter(
    id: string,
    expectedVersion: number,
    counter: number,
    lastUsedAt: number,
  ): Promise<PasskeyCredential> {
    const stored = await this.credentials.findOneAndUpdate(
      { _id: id, version: expectedVersion },
      { $set: { counter, lastUsedAt }, $inc: { version: 1 } },
      { returnDocument: "after" },
    );
    if (stored) return toCredential(stored);
    if ((await this.credentials.countDocuments({ _id: id }, { limit: 1 })) === 0) {
      throw new PlatformError("NOT_FOUND", "No such passkey");
    }
    throw new PlatformError("CONFLICT", "Passkey was changed concurrently (stale version)", {
      details: { expectedVersion },
    });
  }

  async delete(id: string, userId: string): Promise<boolean> {
    return (await this.credentials.deleteOne({ _id: id, userId })).deletedCount === 1;
  }
}

function toCredential(doc: PasskeyCredentialDocument): PasskeyCredential {
  return {
    id: doc._id,
    userId: doc.userId,
    userHandle: doc.userHandle,
    publicKey: doc.publicKey,
    counter: doc.counter,
    transports: [...doc.transports],
    deviceType: doc.deviceType,
    backedUp: doc.backedUp,
    aaguid: doc.aaguid,
    label: doc.label,
    createdAt: doc.createdAt,
    lastUsedAt: doc.lastUsedAt,
    version: doc.version,
  };
}
