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

// An attempt that keeps losing races to other instances gives up after this many rounds.
const MAX_ROUNDS = 16;

/** No failure window open at `now` (never opened, or ended). */
function endedWindow(now: number) {
  return { $or: [{ windowEnd: { $exists: false } }, { windowEnd: { $lte: now } }] };
}

/** No lock in force at `now`. */
function notLocked(now: number) {
  return { $or: [{ lockedUntil: { $exists: false } }, { lockedUntil: { $lte: now } }] };
}

/**
 * MfaLockouts on MongoDB, one document per user holding the lock's end and the open failure window.
 * - A lock only grows: `lock` is one `$max` upsert, so concurrent locks keep the latest end.
 * - `lockedUntil` is one `findOne` asking `lockedUntil > now` (the Clock), whatever the TTL monitor's delay.
 * - `reserveAttempt` counts with one conditional `$inc` upsert (`findOneAndUpdate`) on a live window
 *   below `max` of a user not locked; the count it answers is the one this attempt made. The first
 *   attempt of a user with no document is that same single command (the upsert inserts the window).
 *   When the document matches none of that (a lock in force, a full window, an ended window), the
 *   upsert fails with a duplicate key and one read tells which: a lock is answered as it is; a full
 *   window is turned into a lock by the one update that still finds it full (so concurrent attempts
 *   beyond `max` lock once); an ended window is reopened by a conditional update. Up to 3 commands.
 * - `clearFailures` is one `$unset`, `unlock` one `deleteOne`.
 * Commands: 1 per method, except `reserveAttempt` (1; 3 when it finds a lock, a full or an ended window).
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

  async reserveAttempt(
    userId: string,
    weight: number,
    max: number,
    windowMs: number,
  ): Promise<{ failures: number } | { lockedUntil: number }> {
    const now = this.clock.now();
    const end = now + windowMs;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const counted = await this.countInLiveWindow(userId, weight, max, now, end);
      if (counted !== undefined) return { failures: counted };
      const doc = await this.lockouts.findOne({ _id: userId });
      if (doc?.lockedUntil !== undefined && doc.lockedUntil > now) return { lockedUntil: doc.lockedUntil };
      if (doc?.windowEnd !== undefined && doc.windowEnd > now) {
        // The count reached max (answers still being judged): this attempt turns the window into a lock.
        const locked = await this.lockouts.findOneAndUpdate(
          { _id: userId, windowEnd: { $gt: now }, failures: { $gte: max } },
          {
            $unset: { failures: "", windowEnd: "" },
            $max: { lockedUntil: end, expiresAtDate: new Date(end) },
          },
          { returnDocument: "after" },
        );
        if (locked?.lockedUntil !== undefined) return { lockedUntil: locked.lockedUntil };
        continue;
      }
      const opened = await this.lockouts.updateOne(
        { _id: userId, $and: [endedWindow(now), notLocked(now)] },
        { $set: { failures: weight, windowEnd: end }, $max: { expiresAtDate: new Date(end) } },
      );
      if (opened.matchedCount === 1) return { failures: weight };
    }
    throw new PlatformError("CONFLICT", "The MFA failure count kept changing concurrently");
  }

  async clearFailures(userId: string): Promise<void> {
    await this.lockouts.updateOne({ _id: userId }, { $unset: { failures: "", windowEnd: "" } });
  }

  async unlock(userId: string): Promise<void> {
    await this.lockouts.deleteOne({ _id: userId });
  }

  // One more attempt in a live window whose count is below max and whose user is not locked, or a new
  // window for a user with no document: the count after it; undefined (a duplicate key) when the
  // document exists but matches none of that.
  private async countInLiveWindow(
    userId: string,
    weight: number,
    max: number,
    now: number,
    end: number,
  ): Promise<number | undefined> {
    try {
      const doc = await this.lockouts.findOneAndUpdate(
        { _id: userId, windowEnd: { $gt: now }, failures: { $lt: max }, ...notLocked(now) },
        { $inc: { failures: weight }, $setOnInsert: { windowEnd: end, expiresAtDate: new Date(end) } },
        { upsert: true, returnDocument: "after" },
      );
      return doc?.failures;
    } catch (e) {
      if (isDuplicateKey(e)) return undefined;
      throw e;
    }
  }
}
