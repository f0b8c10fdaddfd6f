import { createHash } from "node:crypto";
import type { Clock, SessionRecord, SessionStore, SessionSummary } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";

/**
 * The `sessions` collection's document: the record, `_id` = the SHA-256 of its id (the id is the
 * session cookie's value, a bearer secret: whoever reads the database or a backup must not get a live
 * session from it), plus a Date for the TTL index.
 */
export interface SessionDocument {
  _id: string;
  /** The signed-in user (indexed: `listByUser`, `deleteByUser`); absent before sign-in. */
  userId?: string;
  data: Record<string, unknown>;
  createdAt: number;
  lastAccessedAt: number;
  expiresAt: number;
  /** `expiresAt` as a Date: the TTL index removes the session after it (liveness is judged on read). */
  expiresAtDate: Date;
}

/** Options of the MongoSessionStore. */
export interface MongoSessionStoreOptions {
  db: Db;
  clock: Clock;
  /** Collection name (default `sessions`). */
  collection?: string;
}

/**
 * SessionStore on MongoDB: one document per session; every read asks for `expiresAt > now`, so an
 * expired session is never served whatever the TTL monitor's delay; `touch` is one conditional update,
 * and `getAndTouch` (what the SessionManager loads a request's session with) one `findOneAndUpdate`.
 */
export class MongoSessionStore implements SessionStore {
  private readonly sessions: Collection<SessionDocument>;
  private readonly clock: Clock;

  constructor(options: MongoSessionStoreOptions) {
    // An undefined field is left out, as structuredClone-then-read would see it missing, never null.
    this.sessions = options.db.collection<SessionDocument>(options.collection ?? "sessions", {
      ignoreUndefined: true,
    });
    this.clock = options.clock;
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.sessions.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
      { key: { userId: 1, createdAt: 1 }, name: "userId_createdAt", sparse: true },
    ]);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const doc = await this.sessions.findOne({ _id: storedKey(id), expiresAt: { $gt: this.clock.now() } });
    return doc ? toRecord(id, doc) : undefined;
  }

  /** One `findOneAndUpdate`: a session request's only round trip. */
  async getAndTouch(
    id: string,
    lastAccessedAt: number,
    expiresAt: number,
  ): Promise<SessionRecord | undefined> {
    const doc = await this.sessions.findOneAndUpdate(
      { _id: storedKey(id), expiresAt: { $gt: this.clock.now() } },
      { $set: { lastAccessedAt, expiresAt, expiresAtDate: new Date(expiresAt) } },
      { returnDocument: "after" },
    );
    return doc ? toRecord(id, doc) : undefined;
  }

  async save(session: SessionRecord): Promise<void> {
    const doc = documentOf(session);
    await this.sessions.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  /** `save` for a live session only: one replace matching the id and a future `expiresAt`, no upsert. */
  async update(session: SessionRecord): Promise<boolean> {
    const doc = documentOf(session);
    const result = await this.sessions.replaceOne(
      { _id: doc._id, expiresAt: { $gt: this.clock.now() } },
      doc,
    );
    return result.matchedCount === 1;
  }

  async delete(id: string): Promise<boolean> {
    const removed = await this.sessions.findOneAndDelete(
      { _id: storedKey(id) },
      { projection: { expiresAt: 1 } },
    );
    return removed !== null && removed.expiresAt > this.clock.now();
  }

  async listByUser(userId: string, limit = 100): Promise<SessionSummary[]> {
    if (limit <= 0) return [];
    const docs = await this.sessions
      .find(
        { userId, expiresAt: { $gt: this.clock.now() } },
        { projection: { _id: 1, createdAt: 1, lastAccessedAt: 1, expiresAt: 1 } },
      )
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({
      handle: d._id,
      createdAt: d.createdAt,
      lastAccessedAt: d.lastAccessedAt,
      expiresAt: d.expiresAt,
    }));
  }

  /** One `deleteMany` on the `userId` index. */
  async deleteByUser(userId: string): Promise<number> {
    return (await this.sessions.deleteMany({ userId })).deletedCount;
  }

  /** One `findOneAndDelete` on `_id` (the handle is the stored key) and `userId`. */
  async deleteByHandle(userId: string, handle: string): Promise<boolean> {
    const removed = await this.sessions.findOneAndDelete(
      { _id: handle, userId },
      { projection: { expiresAt: 1 } },
    );
    return removed !== null && removed.expiresAt > this.clock.now();
  }

  /** One `deleteMany` on the `userId` index, the kept session's `_id` excluded. */
  async deleteByUserExcept(userId: string, keepHandle: string | undefined): Promise<number> {
    const filter = keepHandle === undefined ? { userId } : { userId, _id: { $ne: keepHandle } };
    return (await this.sessions.deleteMany(filter)).deletedCount;
  }

  async touch(id: string, lastAccessedAt: number, expiresAt: number): Promise<boolean> {
    const result = await this.sessions.updateOne(
      { _id: storedKey(id), expiresAt: { $gt: this.clock.now() } },
      { $set: { lastAccessedAt, expiresAt, expiresAtDate: new Date(expiresAt) } },
    );
    return result.matchedCount === 1;
  }
}

/** The `_id` a session id is stored under: its SHA-256, base64url (the id itself is never stored). */
export function storedKey(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("base64url");
}

/** A session as stored: keyed by its id's SHA-256, with its expiry also as a Date (for the TTL index). */
function documentOf(session: SessionRecord): SessionDocument {
  return {
    _id: storedKey(session.id),
    ...(session.userId === undefined ? {} : { userId: session.userId }),
    data: session.data,
    createdAt: session.createdAt,
    lastAccessedAt: session.lastAccessedAt,
    expiresAt: session.expiresAt,
    expiresAtDate: new Date(session.expiresAt),
  };
}

function toRecord(id: string, doc: SessionDocument): SessionRecord {
  return {
    id,
    ...(doc.userId === undefined ? {} : { userId: doc.userId }),
    data: doc.data,
    createdAt: doc.createdAt,
    lastAccessedAt: doc.lastAccessedAt,
    expiresAt: doc.expiresAt,
  };
}
