import type { Clock, RevokedAccessTokenStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `revoked_access_tokens` collection's document: one denied token (`jti:<id>`) or family (`sid:<id>`). */
export interface RevokedAccessTokenDocument {
  /** `jti:<token id>` or `sid:<family id>`: the prefixes keep the two namespaces apart. */
  _id: string;
  /** Epoch ms until which the entry denies (what reads compare with the Clock). */
  expiresAt: number;
  /** `expiresAt` as a Date for the TTL index. */
  expiresAtDate: Date;
}

/** Options of the MongoRevokedAccessTokenStore. */
export interface MongoRevokedAccessTokenStoreOptions {
  db: Db;
  /** Decides expiry on every read and write. */
  clock: Clock;
  /** Collection name (default `revoked_access_tokens`). */
  collection?: string;
}

/**
 * RevokedAccessTokenStore on MongoDB: one document per denied key, `_id` = `jti:<id>` or `sid:<id>`.
 * Invariants and how each is held:
 * - the later expiry wins: `revoke` is one upsert with `$max` on both the number and the TTL date, so
 *   concurrent revocations of one key keep the latest whatever their order (a duplicate key from two
 *   racing upserts is retried once, when the other insert has landed);
 * - a past `expiresAt` changes nothing and sends nothing;
 * - expiry: `isRevoked` asks `expiresAt > now` (the Clock); the TTL index on `expiresAtDate` only
 *   reclaims space, so the list stays bounded by the tokens that could still be accepted.
 * Commands: `isRevoked` is one `find` (limit 1, single batch, `_id` only) over both keys: the only
 * command of a bearer request; `revoke` and `revokeFamily` send one `update`.
 */
export class MongoRevokedAccessTokenStore implements RevokedAccessTokenStore {
  private readonly entries: Collection<RevokedAccessTokenDocument>;
  private readonly clock: Clock;

  constructor(options: MongoRevokedAccessTokenStoreOptions) {
    this.entries = options.db.collection<RevokedAccessTokenDocument>(
      options.collection ?? "revoked_access_tokens",
    );
    this.clock = options.clock;
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.entries.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async revoke(jti: string, expiresAt: number): Promise<void> {
    await this.deny(`jti:${jti}`, expiresAt);
  }

  async revokeFamily(familyId: string, expiresAt: number): Promise<void> {
    await this.deny(`sid:${familyId}`, expiresAt);
  }

  async isRevoked(jti: string, familyId?: string): Promise<boolean> {
    const keys = familyId === undefined ? [`jti:${jti}`] : [`jti:${jti}`, `sid:${familyId}`];
    const found = await this.entries.findOne(
      { _id: { $in: keys }, expiresAt: { $gt: this.clock.now() } },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  private async deny(key: string, expiresAt: number): Promise<void> {
    if (!(expiresAt > this.clock.now())) return;
    const upsert = () =>
      this.entries.updateOne(
        { _id: key },
        { $max: { expiresAt, expiresAtDate: new Date(expiresAt) } },
        { upsert: true },
      );
    try {
      await upsert();
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      await upsert();
    }
  }
}
