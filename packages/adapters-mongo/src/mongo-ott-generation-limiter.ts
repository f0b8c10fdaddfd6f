import { createHash } from "node:crypto";
import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  OttGenerationKey,
  OttGenerationLimiter,
  OttGenerationLimits,
  OttGenerationVerdict,
} from "@keyward/core/ports";
import { OTT_GENERATION_LIMITS_DEFAULTS, throttleAddressKey, usernameKey } from "@keyward/core/adapter-kit";
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

/** Options of the MongoOttGenerationLimiter; limits default to `OTT_GENERATION_LIMITS_DEFAULTS`. */
export interface MongoOttGenerationLimiterOptions extends Partial<OttGenerationLimits> {
  db: Db;
  /** Windows open and end by this clock only. */
  clock: Clock;
  /** Collection name (default `ott_generation_counters`). */
  collection?: string;
}

/**
 * OttGenerationLimiter on MongoDB, shared by every instance over one database: two fixed-window
 * counters per request, `u:` + SHA-256 of the username key and `i:` + SHA-256 of the address key (no
 * plain username stored), documents `{ _id, count, windowEnd }` with a TTL index on `windowEnd`;
 * windows are judged by the Clock on every read.
 *
 * "Both or neither" without a transaction: `acquire` sends one unordered bulk of two conditional
 * `$inc` upserts, each counting only while its window is live and its count is under its limit. When
 * both count (the hot path) that is the only command. When one is refused, the other's count is taken
 * back (`updateMany` `$inc: -1`, then `deleteMany` of a window left at 0, so a refused request opens
 * no window), both are read and the later block is reported: four commands. A counter refused because
 * its window ended is deleted and the request counted again. So the limit is never exceeded under
 * any concurrency; what concurrency can do is refuse a request while another, itself being refused,
 * holds a unit it is about to give back (the in-memory limiter, one process, has no such instant).
 */
export class MongoOttGenerationLimiter implements OttGenerationLimiter {
  private readonly counters: Collection<WindowCounterDocument>;
  private readonly clock: Clock;
  private readonly limits: OttGenerationLimits;

  constructor(options: MongoOttGenerationLimiterOptions) {
    this.counters = options.db.collection<WindowCounterDocument>(
      options.collection ?? "ott_generation_counters",
    );
    this.clock = options.clock;
    this.limits = {
      maxPerUser: options.maxPerUser ?? OTT_GENERATION_LIMITS_DEFAULTS.maxPerUser,
      maxPerIp: options.maxPerIp ?? OTT_GENERATION_LIMITS_DEFAULTS.maxPerIp,
      windowMs: options.windowMs ?? OTT_GENERATION_LIMITS_DEFAULTS.windowMs,
    };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `OTT generation limiter ${name} must be a positive integer`,
          { details: { key: name, value } },
        );
      }
    }
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.counters.createIndexes([WINDOW_END_TTL_INDEX]);
  }

  async acquire(key: OttGenerationKey): Promise<OttGenerationVerdict> {
    const now = this.clock.now();
    const user: WindowIncrement = {
      id: `u:${sha256(usernameKey(key.username))}`,
      below: this.limits.maxPerUser,
    };
    const ip: WindowIncrement = {
      id: `i:${sha256(throttleAddressKey(key.remoteAddress))}`,
      below: this.limits.maxPerIp,
    };
    const ids = [user.id, ip.id];
    for (let attempt = 0; attempt < MAX_COUNT_ATTEMPTS; attempt++) {
      const refused = await incrementWindows(this.counters, [user, ip], now, this.limits.windowMs);
      if (refused.length === 0) return { allowed: true };
      await this.giveBack(ids.filter((id) => !refused.includes(id)));
      const verdict = await this.blockedVerdict(user.id, ip.id, now);
      if (verdict) return verdict;
      // Not blocked: a window had ended (delete it) or a concurrent first request won the insert.
      await dropEndedWindows(this.counters, refused, now);
    }
    throw new PlatformError("CONFLICT", "OTT generation counter kept changing; the request was not counted");
  }

  /** Takes back one count on each of `ids`, and forgets a window left without counts. */
  private async giveBack(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.counters.updateMany({ _id: { $in: ids } }, { $inc: { count: -1 } });
    await this.counters.deleteMany({ _id: { $in: ids }, count: { $lte: 0 } });
  }

  /** The refusal for the live counters, reporting the later of two blocks; undefined when none blocks. */
  private async blockedVerdict(
    userId: string,
    ipId: string,
    now: number,
  ): Promise<OttGenerationVerdict | undefined> {
    const live = await liveWindows(this.counters, [userId, ipId], now);
    const { maxPerUser, maxPerIp, windowMs } = this.limits;
    const user = blockedFor(live.get(userId), maxPerUser, now, windowMs);
    const ip = blockedFor(live.get(ipId), maxPerIp, now, windowMs);
    if (user === 0 && ip === 0) return undefined;
    return user >= ip
      ? { allowed: false, retryAfterMs: user, scope: "user" }
      : { allowed: false, retryAfterMs: ip, scope: "ip" };
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}
