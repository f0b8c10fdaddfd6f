import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  LoginThrottle,
  LoginThrottleLimits,
  ThrottleKey,
  ThrottleVerdict,
} from "@keyward/core/ports";
import { LOGIN_THROTTLE_DEFAULTS, throttleAccountKey, throttleKeys } from "@keyward/core/adapter-kit";
import type { Collection, Db } from "mongodb";
import {
  blockedFor,
  dropEndedWindows,
  incrementWindows,
  liveWindows,
  MAX_COUNT_ATTEMPTS,
  WINDOW_END_TTL_INDEX,
  type WindowCounterDocument,
  type WindowIncrement,
} from "./mongo-window-counters.js";

/** Options of the MongoLoginThrottle; every limit defaults to `LOGIN_THROTTLE_DEFAULTS`. */
export interface MongoLoginThrottleOptions extends Partial<LoginThrottleLimits> {
  db: Db;
  /** Windows open and end by this clock only. */
  clock: Clock;
  /** Collection name (default `login_throttle_counters`). */
  collection?: string;
}

/**
 * LoginThrottle on MongoDB, shared by every instance over one database. One document per counter
 * (`throttleKeys`: hashed, so no plain username is stored), `{ _id, count, windowEnd, account? }`;
 * windows open at a counter's first failure and are judged by the Clock on every read (the TTL index
 * on `windowEnd` only cleans up).
 * - `check`: one `find` of both counters. Records nothing.
 * - `recordFailure`: one command, an unordered bulk of two `$inc` upserts filtered on a live window, so
 *   concurrent failures on any instance are all counted (no read-then-write). A counter whose window
 *   ended (the TTL monitor is late) collides on `_id`: it is deleted when ended (one `deleteMany`) and
 *   counted again, so that path costs two more commands.
 * - `recordSuccess`: one `deleteOne` of the pair counter; `clearAccount`: one `deleteMany` on the
 *   pair counters' `account` key (sparse index). Address counters are kept, as the port says.
 */
export class MongoLoginThrottle implements LoginThrottle {
  private readonly counters: Collection<WindowCounterDocument>;
  private readonly clock: Clock;
  private readonly limits: LoginThrottleLimits;

  constructor(options: MongoLoginThrottleOptions) {
    this.counters = options.db.collection<WindowCounterDocument>(
      options.collection ?? "login_throttle_counters",
    );
    this.clock = options.clock;
    this.limits = {
      maxFailuresPerAccountAndIp:
        options.maxFailuresPerAccountAndIp ?? LOGIN_THROTTLE_DEFAULTS.maxFailuresPerAccountAndIp,
      maxFailuresPerIp: options.maxFailuresPerIp ?? LOGIN_THROTTLE_DEFAULTS.maxFailuresPerIp,
      windowMs: options.windowMs ?? LOGIN_THROTTLE_DEFAULTS.windowMs,
    };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `Login throttle ${name} must be a positive integer`,
          {
            details: { key: name, value },
          },
        );
      }
    }
  }

  /** Creates the TTL index and the account index of unlocks (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.counters.createIndexes([
      WINDOW_END_TTL_INDEX,
      { key: { account: 1 }, name: "account_sparse", sparse: true },
    ]);
  }

  async check(key: ThrottleKey): Promise<ThrottleVerdict> {
    const now = this.clock.now();
    const keys = throttleKeys(key);
    const live = await liveWindows(this.counters, [keys.accountAndIp, keys.ip], now);
    const { maxFailuresPerAccountAndIp, maxFailuresPerIp, windowMs } = this.limits;
    const pair = blockedFor(live.get(keys.accountAndIp), maxFailuresPerAccountAndIp, now, windowMs);
    const ip = blockedFor(live.get(keys.ip), maxFailuresPerIp, now, windowMs);
    if (pair === 0 && ip === 0) return { allowed: true };
    // When both block, the caller must wait for the later of the two.
    return pair >= ip
      ? { allowed: false, retryAfterMs: pair, scope: "account-ip" }
      : { allowed: false, retryAfterMs: ip, scope: "ip" };
  }

  async recordFailure(key: ThrottleKey): Promise<void> {
    const now = this.clock.now();
    const keys = throttleKeys(key);
    let pending: WindowIncrement[] = [{ id: keys.accountAndIp, account: keys.account }, { id: keys.ip }];
    for (let attempt = 0; attempt < MAX_COUNT_ATTEMPTS; attempt++) {
      const refused = await incrementWindows(this.counters, pending, now, this.limits.windowMs);
      if (refused.length === 0) return;
      await dropEndedWindows(this.counters, refused, now);
      pending = pending.filter((inc) => refused.includes(inc.id));
    }
    // Each retry follows an ended window (now deleted) or a lost insert race (now a live window), so
    // reaching this needs the counter deleted and re-created between every attempt.
    throw new PlatformError("CONFLICT", "Login throttle counter kept changing; the failure was not counted");
  }

  async recordSuccess(key: ThrottleKey): Promise<void> {
    await this.counters.deleteOne({ _id: throttleKeys(key).accountAndIp });
  }

  async clearAccount(username: string): Promise<void> {
    await this.counters.deleteMany({ account: throttleAccountKey(username) });
  }
}
