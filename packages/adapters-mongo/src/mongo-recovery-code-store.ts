import type { RecoveryCodeStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";

/** The `mfa_recovery_codes` collection's document: one per user, `_id` = the user id. */
export interface RecoveryCodeDocument {
  _id: string;
  /** The keyed hashes of the unused codes (never a code). */
  codes: string[];
  createdAt: Date;
}

/** Options of the MongoRecoveryCodeStore. */
export interface MongoRecoveryCodeStoreOptions {
  db: Db;
  /** Collection name (default `mfa_recovery_codes`). */
  collection?: string;
}

/**
 * RecoveryCodeStore on MongoDB, one document per user holding the hashes of its unused codes.
 * - `replace` is one `replaceOne` upsert: the whole set at once, the old codes gone with it.
 * - `spend` is one `updateOne` matching the user and the hash (`codes: hash`, an equality match on the
 *   array) and `$pull`ing it: the server applies it to the document atomically, so of concurrent
 *   spends of a code (on any instance) exactly one modifies the document.
 * - `remaining` is one `findOne`; `remove` one `deleteOne`.
 * No index beyond `_id`: every command addresses one user's document.
 */
export class MongoRecoveryCodeStore implements RecoveryCodeStore {
  private readonly sets: Collection<RecoveryCodeDocument>;

  constructor(options: MongoRecoveryCodeStoreOptions) {
    this.sets = options.db.collection<RecoveryCodeDocument>(options.collection ?? "mfa_recovery_codes");
  }

  /** Nothing to create: every command addresses a document by `_id`. */
  async ensureIndexes(): Promise<void> {}

  async replace(userId: string, codeHashes: readonly string[], createdAt: number): Promise<void> {
    await this.sets.replaceOne(
      { _id: userId },
      { codes: [...new Set(codeHashes)], createdAt: new Date(createdAt) },
      { upsert: true },
    );
  }

  async spend(userId: string, codeHash: string): Promise<boolean> {
    const result = await this.sets.updateOne(
      { _id: userId, codes: codeHash },
      { $pull: { codes: codeHash } },
    );
    return result.modifiedCount === 1;
  }

  async remaining(userId: string): Promise<number> {
    const doc = await this.sets.findOne({ _id: userId }, { projection: { codes: 1 } });
    return Array.isArray(doc?.codes) ? doc.codes.length : 0;
  }

  async remove(userId: string): Promise<boolean> {
    return (await this.sets.deleteOne({ _id: userId })).deletedCount === 1;
  }
}
