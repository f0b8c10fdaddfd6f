import { PlatformError } from "@keyward/core/errors";
import type { Clock, Escalation, EscalationStatus, EscalationStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** What an escalation holds besides the fields the store owns or queries. */
export type StoredEscalation = Omit<
  Escalation,
  "id" | "version" | "createdAt" | "callerBinding" | "status" | "expiresAt"
>;

/** The `mfa_escalations` collection's document: one held login, `_id` = its id. */
export interface EscalationDocument {
  _id: string;
  version: number;
  /** Kept from the create: a compare-and-set never changes it. */
  createdAt: number;
  /** Hash of the caller's cookie secret (the secret is never stored); kept from the create. */
  callerBinding: string;
  /** As written; PENDING and APPROVED read as EXPIRED from `expiresAt` on. */
  status: EscalationStatus;
  expiresAt: number;
  /** The rest of the escalation (user, primary authentication, reason, decision…). */
  escalation: StoredEscalation;
  /** `expiresAt` + retention (epoch ms): the escalation is unknown from then on. */
  keepUntil: number;
  /** `keepUntil` as a Date, for the TTL index. */
  keepUntilDate: Date;
}

/** Options of the MongoEscalationStore. */
export interface MongoEscalationStoreOptions {
  db: Db;
  clock: Clock;
  /** How long an escalation is kept after its `expiresAt`, so its final status can still be read. Default 30 min. */
  retentionMs?: number;
  /** Collection name (default `mfa_escalations`). */
  collection?: string;
}

const UNDECIDED: readonly EscalationStatus[] = ["PENDING", "APPROVED"];

/**
 * EscalationStore on MongoDB: an escalation held on one instance is decided (by an administrator
 * on any instance) and completed on another.
 * - `compareAndSet` is one `findOneAndUpdate` on `{ _id, version, not expired, kept }`: exactly one of
 *   concurrent decisions wins, and an approval is claimed once. `createdAt` and `callerBinding` sit
 *   outside what it sets. A failed one reads the document once to tell NOT_FOUND from an expired or a
 *   stale escalation (both CONFLICT).
 * - Expiry is judged on every read with the Clock (EXPIRED is computed, never stored); the TTL index
 *   drops a document `retentionMs` after its `expiresAt`, and reads treat it as unknown from then on.
 * - `create` is one upsert that replaces only a document past its retention: a kept one makes it fail
 *   with a duplicate key, which is CONFLICT.
 * - `listPending` is one `find` (`status` PENDING, `expiresAt > now`), oldest `createdAt` first, ties
 *   by id (the in-memory default: by insertion).
 * Commands: 1 per method (2 for a compare-and-set that fails).
 */
export class MongoEscalationStore implements EscalationStore {
  private readonly escalations: Collection<EscalationDocument>;
  private readonly clock: Clock;
  private readonly retentionMs: number;

  constructor(options: MongoEscalationStoreOptions) {
    this.escalations = options.db.collection<EscalationDocument>(options.collection ?? "mfa_escalations", {
      ignoreUndefined: true,
    });
    this.clock = options.clock;
    this.retentionMs = options.retentionMs ?? 30 * 60_000;
    if (!(this.retentionMs >= 0)) {
      throw new PlatformError("CONFIGURATION_INVALID", "retentionMs must not be negative");
    }
  }

  /** Creates the TTL index and the pending list's index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.escalations.createIndexes([
      { key: { keepUntilDate: 1 }, name: "keepUntil_ttl", expireAfterSeconds: 0 },
      { key: { status: 1, createdAt: 1 }, name: "status_createdAt" },
    ]);
  }

  async create(escalation: Escalation): Promise<Escalation> {
    if (typeof escalation.id !== "string" || escalation.id.length === 0) {
      throw new PlatformError("VALIDATION_FAILED", "The escalation id must not be empty", {
        details: { fields: ["id"] },
      });
    }
    const doc: EscalationDocument = {
      _id: escalation.id,
      version: 1,
      createdAt: escalation.createdAt,
      callerBinding: escalation.callerBinding,
      ...this.mutablePart(escalation),
    };
    try {
      await this.escalations.replaceOne({ _id: doc._id, keepUntil: { $lte: this.clock.now() } }, doc, {
        upsert: true,
      });
    } catch (e) {
      if (isDuplicateKey(e))
        throw new PlatformError("CONFLICT", "The escalation already exists", { cause: e });
      throw e;
    }
    return this.read(doc);
  }

  async find(id: string): Promise<Escalation | undefined> {
    const doc = await this.escalations.findOne({ _id: id, keepUntil: { $gt: this.clock.now() } });
    return doc ? this.read(doc) : undefined;
  }

  async listPending(): Promise<Escalation[]> {
    const docs = await this.escalations
      .find({ status: "PENDING", expiresAt: { $gt: this.clock.now() } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return docs.map((d) => this.read(d));
  }

  async compareAndSet(escalation: Escalation): Promise<Escalation> {
    const now = this.clock.now();
    const stored = await this.escalations.findOneAndUpdate(
      {
        _id: escalation.id,
        version: escalation.version,
        keepUntil: { $gt: now },
        $or: [{ status: { $nin: [...UNDECIDED] } }, { expiresAt: { $gt: now } }],
      },
      { $set: this.mutablePart(escalation), $inc: { version: 1 } },
      { returnDocument: "after" },
    );
    if (stored) return this.read(stored);
    const current = await this.escalations.findOne(
      { _id: escalation.id, keepUntil: { $gt: now } },
      { projection: { status: 1, expiresAt: 1 } },
    );
    if (!current) throw new PlatformError("NOT_FOUND", "No such escalation");
    if (UNDECIDED.includes(current.status) && now >= current.expiresAt) {
      throw new PlatformError("CONFLICT", "The escalation expired");
    }
    throw new PlatformError("CONFLICT", "The escalation changed concurrently", {
      details: { expectedVersion: escalation.version },
    });
  }

  // What a write sets besides id, version, createdAt and callerBinding.
  private mutablePart(
    e: Escalation,
  ): Pick<EscalationDocument, "status" | "expiresAt" | "escalation" | "keepUntil" | "keepUntilDate"> {
    const { id: _i, version: _v, createdAt: _c, callerBinding: _b, status, expiresAt, ...rest } = e;
    const keepUntil = expiresAt + this.retentionMs;
    return { status, expiresAt, escalation: rest, keepUntil, keepUntilDate: new Date(keepUntil) };
  }

  // The escalation as callers see it: a pending or approved one past its time reads EXPIRED.
  private read(doc: EscalationDocument): Escalation {
    const expired = UNDECIDED.includes(doc.status) && this.clock.now() >= doc.expiresAt;
    return {
      ...doc.escalation,
      id: doc._id,
      version: doc.version,
      createdAt: doc.createdAt,
      callerBinding: doc.callerBinding,
      status: expired ? "EXPIRED" : doc.status,
      expiresAt: doc.expiresAt,
    };
  }
}
