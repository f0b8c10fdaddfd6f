import { checkLease } from "@keyward/core/adapter-kit";
import type { Clock, DistributedLock, LeaseGrant } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `platform_locks` collection's document: the lease on one named lock. */
export interface LockDocument {
  /** The lock's name. */
  _id: string;
  owner: string;
  /** Epoch ms (the platform's Clock) at which the lease lapses: what `tryAcquire` compares. */
  expiresAt: number;
  /** `expiresAt` as a Date, for the housekeeping TTL index only. */
  expiresAtDate: Date;
}

/** Options of the MongoDistributedLock. */
export interface MongoDistributedLockOptions {
  db: Db;
  /** Decides, at acquire time, whether a lease has lapsed. */
  clock: Clock;
  /** Collection name (default `platform_locks`). */
  collection?: string;
}

/**
 * How long after a lease lapsed the TTL monitor may remove its document. Housekeeping only (a lapsed
 * lease is free anyway); the grace keeps the server's clock, which the monitor reads, from removing a
 * lease the platform's Clock still holds live when the two disagree by less than an hour.
 */
export const LOCK_HOUSEKEEPING_GRACE_SECONDS = 3_600;

/**
 * DistributedLock on MongoDB, one document per lock name. `tryAcquire` is one `findOneAndUpdate` on
 * `{ _id: name, $or: [{ owner }, { expiresAt <= now }] }` with upsert: it renews the owner's lease,
 * takes over a lapsed one, or inserts the first; a live lease of another owner matches nothing, so
 * the upsert's insert collides on `_id` (11000) and the answer is undefined. One atomic step per
 * call, so of concurrent callers on a free or lapsed lock exactly one wins. `release` is one
 * `deleteOne` on `{ _id: name, owner }`. Expiry is decided by the platform's Clock on every acquire;
 * the TTL index only removes leases lapsed for an hour.
 */
export class MongoDistributedLock implements DistributedLock {
  private readonly leases: Collection<LockDocument>;
  private readonly clock: Clock;

  constructor(options: MongoDistributedLockOptions) {
    this.leases = options.db.collection<LockDocument>(options.collection ?? "platform_locks");
    this.clock = options.clock;
  }

  /** Creates the housekeeping TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.leases.createIndexes([
      {
        key: { expiresAtDate: 1 },
        name: "lapsed_ttl",
        expireAfterSeconds: LOCK_HOUSEKEEPING_GRACE_SECONDS,
      },
    ]);
  }

  async tryAcquire(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    checkLease(name, owner, ttlMs);
    const now = this.clock.now();
    const expiresAt = now + ttlMs;
    try {
      const held = await this.leases.findOneAndUpdate(
        { _id: name, $or: [{ owner }, { expiresAt: { $lte: now } }] },
        { $set: { owner, expiresAt, expiresAtDate: new Date(expiresAt) } },
        { upsert: true, returnDocument: "after" },
      );
      if (held?.owner !== owner) return undefined;
      return { name: held._id, owner: held.owner, expiresAt: held.expiresAt };
    } catch (error) {
      if (isDuplicateKey(error)) return undefined; // a live lease of another owner
      throw error;
    }
  }

  async release(name: string, owner: string): Promise<boolean> {
    const removed = await this.leases.deleteOne({ _id: name, owner });
    return removed.deletedCount === 1;
  }
}
