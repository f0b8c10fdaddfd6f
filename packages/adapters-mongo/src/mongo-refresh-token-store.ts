import { randomUUID } from "node:crypto";
import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  NewRefreshTokenRecord,
  RefreshTokenAuthentication,
  RefreshTokenRecord,
  RefreshTokenRotation,
  RefreshTokenStatus,
  RefreshTokenStore,
} from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `refresh_tokens` collection's document: the record, `_id` = its id, plus a Date for the TTL index. */
export interface RefreshTokenDocument {
  _id: string;
  /** SHA-256 of the token as the core hands it (`hashRefreshToken`); the token itself is never stored. */
  tokenHash: string;
  familyId: string;
  userId: string;
  authentication: RefreshTokenAuthentication;
  expiresAt: number;
  /** `expiresAt` as a Date: the TTL index removes the record after it (liveness is judged on read). */
  expiresAtDate: Date;
  status: RefreshTokenStatus;
  rotatedAt?: number;
  version: number;
  /** Marks the records one `revokeAllForUser` call changed, so it can name their families. */
  revokedBy?: string;
}

/** Options of the MongoRefreshTokenStore. */
export interface MongoRefreshTokenStoreOptions {
  db: Db;
  /** Decides expiry on every read and stamps `rotatedAt`. */
  clock: Clock;
  /** Collection name (default `refresh_tokens`). */
  collection?: string;
}

/** What reads return: the record's fields, not the TTL date or the revocation marker. */
const RECORD_FIELDS = { expiresAtDate: 0, revokedBy: 0 } as const;

/** How often `rotate` re-reads a token that `compareAndSetStatus` made active again under it. */
const ROTATE_ATTEMPTS = 3;

/**
 * RefreshTokenStore on MongoDB. Invariants and how each is held:
 * - one record per id and per token hash: `_id` and the unique `tokenHash` index (a duplicate is
 *   `CONFLICT`; an expired record the TTL monitor has not removed yet gives way, as in memory);
 * - exactly one winner per rotation: `rotate` is one `findOneAndUpdate` on `{ tokenHash, status:
 *   "active", expiresAt > now }`; `compareAndSetStatus` one on `{ _id, version, status ≠ revoked }`;
 * - `revoked` is final: no update matches a revoked record;
 * - expiry: every filter asks `expiresAt > now` (the Clock), the TTL index only reclaims space.
 * Commands: `findByHash`, `compareAndSetStatus`, `revokeFamily` and a winning `rotate` send one;
 * a losing `rotate` two (the update, then a read that tells raced, reused, revoked and unknown apart);
 * `create` one (three when an expired record holds the id or hash); `revokeAllForUser` two.
 */
export class MongoRefreshTokenStore implements RefreshTokenStore {
  private readonly tokens: Collection<RefreshTokenDocument>;
  private readonly clock: Clock;

  constructor(options: MongoRefreshTokenStoreOptions) {
    this.tokens = options.db.collection<RefreshTokenDocument>(options.collection ?? "refresh_tokens", {
      ignoreUndefined: true,
    });
    this.clock = options.clock;
  }

  /** Creates the unique hash, family, user and TTL indexes (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.tokens.createIndexes([
      { key: { tokenHash: 1 }, name: "tokenHash_unique", unique: true },
      { key: { familyId: 1 }, name: "familyId" },
      { key: { userId: 1 }, name: "userId" },
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async create(record: NewRefreshTokenRecord): Promise<RefreshTokenRecord> {
    const doc = toDocument(record);
    try {
      await this.insert(doc);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      // An expired holder of the id or hash is absent to every read: it gives way, as in memory.
      const expired = {
        $or: [{ _id: doc._id }, { tokenHash: doc.tokenHash }],
        expiresAt: { $lte: this.now() },
      };
      if ((await this.tokens.deleteMany(expired)).deletedCount === 0) throw conflict(e);
      await this.insert(doc).catch((again: unknown) => {
        throw isDuplicateKey(again) ? conflict(again) : again;
      });
    }
    return toRecord(doc);
  }

  async findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const doc = await this.tokens.findOne(
      { tokenHash, expiresAt: { $gt: this.now() } },
      { projection: RECORD_FIELDS },
    );
    return doc ? toRecord(doc) : undefined;
  }

  async compareAndSetStatus(
    id: string,
    expectedVersion: number,
    status: RefreshTokenStatus,
  ): Promise<RefreshTokenRecord | undefined> {
    const doc = await this.tokens.findOneAndUpdate(
      { _id: id, version: expectedVersion, status: { $ne: "revoked" }, expiresAt: { $gt: this.now() } },
      { $set: { status }, $inc: { version: 1 } },
      { returnDocument: "after", projection: RECORD_FIELDS },
    );
    return doc ? toRecord(doc) : undefined;
  }

  async rotate(tokenHash: string, raceWindowMs: number): Promise<RefreshTokenRotation> {
    for (let attempt = 1; ; attempt++) {
      const now = this.now();
      const spent = await this.tokens.findOneAndUpdate(
        { tokenHash, status: "active", expiresAt: { $gt: now } },
        { $set: { status: "rotated", rotatedAt: now }, $inc: { version: 1 } },
        { returnDocument: "after", projection: RECORD_FIELDS },
      );
      if (spent) return { outcome: "rotated", record: toRecord(spent) };
      // Lost: the record as it stands now says why (it can only have moved on since the update).
      const found = await this.findByHash(tokenHash);
      if (!found) return { outcome: "unknown" };
      if (found.status === "revoked") return { outcome: "revoked", record: found };
      if (found.status === "rotated") {
        const raced = found.rotatedAt !== undefined && now - found.rotatedAt < raceWindowMs;
        return { outcome: raced ? "raced" : "reused", record: found };
      }
      // Active again (a compareAndSetStatus back to active between the two commands): try again.
      if (attempt === ROTATE_ATTEMPTS) return { outcome: "raced", record: found };
    }
  }

  async revokeFamily(familyId: string): Promise<number> {
    const result = await this.tokens.updateMany(
      { familyId, status: { $ne: "revoked" }, expiresAt: { $gt: this.now() } },
      { $set: { status: "revoked" }, $inc: { version: 1 } },
    );
    return result.modifiedCount;
  }

  async revokeAllForUser(userId: string): Promise<string[]> {
    const revokedBy = randomUUID();
    const result = await this.tokens.updateMany(
      { userId, status: { $ne: "revoked" }, expiresAt: { $gt: this.now() } },
      { $set: { status: "revoked", revokedBy }, $inc: { version: 1 } },
    );
    if (result.modifiedCount === 0) return [];
    const changed = await this.tokens.find({ revokedBy }, { projection: { _id: 0, familyId: 1 } }).toArray();
    return [...new Set(changed.map((d) => d.familyId))];
  }

  private async insert(doc: RefreshTokenDocument): Promise<void> {
    await this.tokens.insertOne(doc);
  }

  private now(): number {
    return this.clock.now();
  }
}

function toDocument(record: NewRefreshTokenRecord): RefreshTokenDocument {
  const a = record.authentication;
  return {
    _id: record.id,
    tokenHash: record.tokenHash,
    familyId: record.familyId,
    userId: record.userId,
    authentication: {
      username: a.username,
      authorities: [...a.authorities],
      method: a.method,
      authenticatedAt: a.authenticatedAt,
      factors: a.factors.map((f) => ({ ...f })),
      ...(a.securityStamp === undefined ? {} : { securityStamp: a.securityStamp }),
    },
    expiresAt: record.expiresAt,
    expiresAtDate: new Date(record.expiresAt),
    status: "active",
    version: 1,
  };
}

function toRecord(doc: RefreshTokenDocument): RefreshTokenRecord {
  const record: RefreshTokenRecord = {
    id: doc._id,
    tokenHash: doc.tokenHash,
    familyId: doc.familyId,
    userId: doc.userId,
    authentication: {
      ...doc.authentication,
      authorities: [...doc.authentication.authorities],
      factors: doc.authentication.factors.map((f) => ({ ...f })),
    },
    expiresAt: doc.expiresAt,
    status: doc.status,
    version: doc.version,
  };
  return doc.rotatedAt === undefined ? record : { ...record, rotatedAt: doc.rotatedAt };
}

function conflict(cause: unknown): PlatformError {
  return new PlatformError("CONFLICT", "Refresh token id or hash already exists", { cause });
}
