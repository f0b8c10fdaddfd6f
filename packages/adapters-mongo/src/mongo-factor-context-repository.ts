import { PlatformError } from "@keyward/core/errors";
import { DEFAULT_FACTOR_CONTEXT_RETENTION_MS } from "@keyward/core/adapter-kit";
import type { Clock, FactorContext, FactorContextRepository } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** What a flow holds besides the fields the store owns (id, version, createdAt, callerBinding). */
export type StoredFactorContext = Omit<
  FactorContext,
  "mfaSessionId" | "version" | "createdAt" | "callerBinding"
>;

/** The `mfa_factor_contexts` collection's document: one MFA flow, `_id` = its `mfaSessionId`. */
export interface FactorContextDocument {
  _id: string;
  /** Compare-and-set version: 1 at create, +1 per save. */
  version: number;
  /** Kept from the create: a save never changes it. */
  createdAt: number;
  /** Kept from the create (opaque, derived from the caller); a save never changes it. */
  callerBinding: string;
  /** Everything else the flow knows (state, factors, the open challenge with its code's hash…). */
  context: StoredFactorContext;
  /** Last write + retention (epoch ms): what reads compare with the Clock. */
  expiresAt: number;
  /** `expiresAt` as a Date, for the TTL index. */
  expiresAtDate: Date;
}

/** Options of the MongoFactorContextRepository. */
export interface MongoFactorContextRepositoryOptions {
  db: Db;
  clock: Clock;
  /** How long a context is kept after its last write. Default 30 min (DEFAULT_FACTOR_CONTEXT_RETENTION_MS). */
  retentionMs?: number;
  /** Collection name (default `mfa_factor_contexts`). */
  collection?: string;
}

/**
 * FactorContextRepository on MongoDB: an MFA flow started on one instance continues on any other.
 * - Every read asks `expiresAt > now` (the Clock), so a context past its retention is absent
 *   whatever the TTL monitor's delay.
 * - `save` is one `findOneAndUpdate` on `{ _id, version, live }`: exactly one of concurrent saves of
 *   a version wins, which is also what makes an OTT code single-use (its verification is a save of
 *   the version that holds the challenge). `createdAt` and `callerBinding` live outside the replaced
 *   `context`, so a save cannot move them. A failed save tells NOT_FOUND from CONFLICT with one count.
 * - `create` is one upsert that replaces only an expired document: a live one makes it fail with a
 *   duplicate key, which is CONFLICT.
 * - The OTT code is kept only as the hash the state machine stores (`context.challenge.codeHash`).
 * Commands: 1 per method (2 for a save that fails).
 */
export class MongoFactorContextRepository implements FactorContextRepository {
  private readonly contexts: Collection<FactorContextDocument>;
  private readonly clock: Clock;
  private readonly retentionMs: number;

  constructor(options: MongoFactorContextRepositoryOptions) {
    // An undefined optional field (a cleared challenge) is left out, never stored as null.
    this.contexts = options.db.collection<FactorContextDocument>(
      options.collection ?? "mfa_factor_contexts",
      {
        ignoreUndefined: true,
      },
    );
    this.clock = options.clock;
    this.retentionMs = options.retentionMs ?? DEFAULT_FACTOR_CONTEXT_RETENTION_MS;
    if (!(this.retentionMs > 0))
      throw new PlatformError("CONFIGURATION_INVALID", "retentionMs must be positive");
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.contexts.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async create(ctx: FactorContext): Promise<FactorContext> {
    if (typeof ctx.mfaSessionId !== "string" || ctx.mfaSessionId.length === 0) {
      throw new PlatformError("VALIDATION_FAILED", "mfaSessionId must not be empty", {
        details: { fields: ["mfaSessionId"] },
      });
    }
    const now = this.clock.now();
    const doc: FactorContextDocument = {
      _id: ctx.mfaSessionId,
      version: 1,
      createdAt: ctx.createdAt,
      callerBinding: ctx.callerBinding,
      context: storedPart(ctx),
      ...this.expiry(now),
    };
    try {
      await this.contexts.replaceOne({ _id: doc._id, expiresAt: { $lte: now } }, doc, { upsert: true });
    } catch (e) {
      if (isDuplicateKey(e))
        throw new PlatformError("CONFLICT", "The MFA session already exists", { cause: e });
      throw e;
    }
    return toContext(doc);
  }

  async find(mfaSessionId: string): Promise<FactorContext | undefined> {
    const doc = await this.contexts.findOne({ _id: mfaSessionId, expiresAt: { $gt: this.clock.now() } });
    return doc ? toContext(doc) : undefined;
  }

  async save(ctx: FactorContext): Promise<FactorContext> {
    const now = this.clock.now();
    const stored = await this.contexts.findOneAndUpdate(
      { _id: ctx.mfaSessionId, version: ctx.version, expiresAt: { $gt: now } },
      { $set: { context: storedPart(ctx), ...this.expiry(now) }, $inc: { version: 1 } },
      { returnDocument: "after" },
    );
    if (stored) return toContext(stored);
    const live = await this.contexts.countDocuments(
      { _id: ctx.mfaSessionId, expiresAt: { $gt: now } },
      { limit: 1 },
    );
    if (live === 0) throw new PlatformError("NOT_FOUND", "No such MFA session");
    throw new PlatformError("CONFLICT", "The MFA session changed concurrently", {
      details: { expectedVersion: ctx.version },
    });
  }

  async delete(mfaSessionId: string): Promise<boolean> {
    const removed = await this.contexts.findOneAndDelete(
      { _id: mfaSessionId },
      { projection: { expiresAt: 1 } },
    );
    return removed !== null && removed.expiresAt > this.clock.now();
  }

  private expiry(now: number): Pick<FactorContextDocument, "expiresAt" | "expiresAtDate"> {
    return { expiresAt: now + this.retentionMs, expiresAtDate: new Date(now + this.retentionMs) };
  }
}

function storedPart(ctx: FactorContext): StoredFactorContext {
  const { mfaSessionId: _id, version: _v, createdAt: _c, callerBinding: _b, ...rest } = ctx;
  return rest;
}

function toContext(doc: FactorContextDocument): FactorContext {
  return {
    ...doc.context,
    mfaSessionId: doc._id,
    version: doc.version,
    createdAt: doc.createdAt,
    callerBinding: doc.callerBinding,
  };
}
