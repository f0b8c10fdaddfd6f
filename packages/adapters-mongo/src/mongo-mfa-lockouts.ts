import { PlatformError } from "@keyward/core/errors";
import type { Clock, MfaLockouts } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `mfa_lockouts` collection's document: one per user, `_id` = the user id. */
export interface MfaLockoutDocument {
  _id: string;
  /** End of the lock (epoch ms); absent when the user was never locked. */
  lockedUntil?: number;
  /** Failures counted in the open window. */
  failures?: number;
  /** End of the failure window the first failure opened (epoch ms). */
  windowEnd?: number;
  /** The later of `lockedUntil` and `windowEnd`, as a Date: the TTL index drops the document after it. */
  expiresAtDate: Date;
}

/** Options of the MongoMfaLockouts. */
export interface MongoMfaLockoutsOptions {
  db: Db;
  clock: Clock;
  /** Collection name (default `mfa_lockouts`). */
  collection?: string;
}

// A failure that keeps losing races to other instances gives up after this many rounds.
const MAX_ROUNDS = 16;

/**
 * MfaLockouts on MongoDB, one document per user holding the lock's end and the open failure window.
 * - A lock only grows: `lock` is one `$max` upsert, so concurrent locks keep the latest end.
 * - `lockedUntil` is one `findOne` asking `lockedUntil > now` (the Clock), whatever the TTL monitor's delay.
 * - `recordFailure` counts with one conditional `$inc` upsert on a live window below `max - 1`; the
 *   max-th failure is the one update that matches `failures >= max - 1` and turns the window into a
 *   lock, so exactly one of concurrent failures locks. The first failure of a user with no document
 *   is that same single command (the upsert inserts the window). When a document exists but its
 *   window ended (before the TTL monitor removed it) or holds only a lock, the upsert fails with a
 *   duplicate key and one more update opens a new window: up to 3 commands. A failure that lands
 *   while another one is locking is absorbed by that lock rather than opening a new window.
 * - `clearFailures` is one `$unset`, `unlock` one `deleteOne`.
 * Commands: 1 per method, except `recordFailure` (1; 2 for the locking failure; 3 after an ended window).
 */
export class MongoMfaLockouts implements MfaLockouts {
  private readonly lockouts: Collection<MfaLockoutDocument>;
  private readonly clock: Clock;

  constructor(options: MongoMfaLockoutsOptions) {
    this.lockouts = options.db.collection<MfaLockoutDocument>(options.collection ?? "mfa_lockouts");
    this.clock = options.clock;
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.lockouts.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async lock(userId: string, until: number): Promise<void> {
    await this.lockouts.updateOne(
      { _id: userId },
      { $max: { lockedUntil: until, expiresAtDate: new Date(until) } },
      { upsert: true },
    );
  }

  async lockedUntil(userId: string): Promise<number | undefined> {
    const doc = await this.lockouts.findOne(
      { _id: userId, lockedUntil: { $gt: this.clock.now() } },
      { projection: { lockedUntil: 1 } },
    );
    return doc?.lockedUntil;
  }

  async recordFailure(userId: string, max: number, windowMs: number): Promise<number | undefined> {
    const now = this.clock.now();
    const end = now + windowMs;
    if (max <= 1) return this.lockNow(userId, end);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (await this.countInLiveWindow(userId, max, now, end)) return undefined;
      const locked = await this.lockouts.updateOne(
        { _id: userId, windowEnd: { $gt: now }, failures: { $gte: max - 1 } },
        {
          $unset: { failures: "", windowEnd: "" },
          $max: { lockedUntil: end, expiresAtDate: new Date(end) },
        },
      );
      if (locked.matchedCount === 1) return end;
      const opened = await this.lockouts.updateOne(
        { _id: userId, $or: [{ windowEnd: { $lte: now } }, { windowEnd: { $exists: false } }] },
        { $set: { failures: 1, windowEnd: end }, $max: { expiresAtDate: new Date(end) } },
      );
      if (opened.matchedCount === 1) return undefined;
    }
    throw new PlatformError("CONFLICT", "The MFA failure count kept changing concurrently");
  }

  async clearFailures(userId: string): Promise<void> {
    await this.lockouts.updateOne({ _id: userId }, { $unset: { failures: "", windowEnd: "" } });
  }

  async unlock(userId: string): Promise<void> {
    await this.lockouts.deleteOne({ _id: userId });
  }

  // max ≤ 1: the first failure locks at once (and leaves no count behind).
  private async lockNow(userId: string, end: number): Promise<number> {
    await this.lockouts.updateOne(
      { _id: userId },
      {
        $unset: { failures: "", windowEnd: "" },
        $max: { lockedUntil: end, expiresAtDate: new Date(end) },
      },
      { upsert: true },
    );
    return end;
  }

  // One more failure in a live window still below max - 1, or a new window for a user with no
  // document; false (a duplicate key) when the document exists but matches neither.
  private async countInLiveWindow(userId: string, max: number, now: number, end: number): Promise<boolean> {
    try {
      await this.lockouts.updateOne(
        { _id: userId, windowEnd: { $gt: now }, failures: { $lt: max - 1 } },
        { $inc: { failures: 1 }, $setOnInsert: { windowEnd: end, expiresAtDate: new Date(end) } },
        { upsert: true },
      );
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }
}
