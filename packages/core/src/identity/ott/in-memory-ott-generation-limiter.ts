import { createHash } from "node:crypto";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { FixedWindowCounters } from "../throttle/fixed-window-counters.js";
import { throttleAddressKey } from "../throttle/throttle-keys.js";
import { usernameKey } from "../users/username-key.js";
import {
  OTT_GENERATION_LIMITS_DEFAULTS,
  type OttGenerationKey,
  type OttGenerationLimiter,
  type OttGenerationLimits,
  type OttGenerationVerdict,
} from "./ott-generation-limiter.js";

/** Options of the InMemoryOttGenerationLimiter; limits default to `OTT_GENERATION_LIMITS_DEFAULTS`. */
export interface InMemoryOttGenerationLimiterOptions extends Partial<OttGenerationLimits> {
  /** Windows open and end by this clock only. */
  clock: Clock;
  /** Counters kept at most; past it the oldest window goes. Default 100 000. */
  maxEntries?: number;
}

/**
 * The embedded OttGenerationLimiter on FixedWindowCounters (like the InMemoryLoginThrottle): fixed
 * windows opened by a counter's first request, swept on write, no timers; checking both counters and
 * counting both happen in one synchronous step, so the check and the count cannot be split by a race. Keys are
 * SHA-256 of the username key (`u:`) and of the address key (`i:`), so memory per counter is fixed and
 * no plain username is held. Bounded by `maxEntries`: a flood of distinct keys makes it forget the
 * oldest windows early; the per-address counter of the flooding address is among the newest.
 */
export class InMemoryOttGenerationLimiter implements OttGenerationLimiter {
  private readonly counters: FixedWindowCounters;
  private readonly clock: Clock;
  private readonly limits: OttGenerationLimits;
  private readonly maxEntries: number;

  constructor(options: InMemoryOttGenerationLimiterOptions) {
    this.clock = options.clock;
    this.limits = {
      maxPerUser: options.maxPerUser ?? OTT_GENERATION_LIMITS_DEFAULTS.maxPerUser,
      maxPerIp: options.maxPerIp ?? OTT_GENERATION_LIMITS_DEFAULTS.maxPerIp,
      windowMs: options.windowMs ?? OTT_GENERATION_LIMITS_DEFAULTS.windowMs,
    };
    this.maxEntries = options.maxEntries ?? 100_000;
    for (const [name, value] of Object.entries({ ...this.limits, maxEntries: this.maxEntries })) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `OTT generation limiter ${name} must be a positive integer`,
          {
            details: { key: name, value },
          },
        );
      }
    }
    this.counters = new FixedWindowCounters(this.limits.windowMs, this.maxEntries);
  }

  /** Counters held (ended windows not yet swept included). */
  get size(): number {
    return this.counters.size;
  }

  async acquire(key: OttGenerationKey): Promise<OttGenerationVerdict> {
    const now = this.clock.now();
    const userKey = `u:${sha256(usernameKey(key.username))}`;
    const ipKey = `i:${sha256(throttleAddressKey(key.remoteAddress))}`;
    const user = this.counters.blockedFor(userKey, this.limits.maxPerUser, now);
    const ip = this.counters.blockedFor(ipKey, this.limits.maxPerIp, now);
    if (user > 0 || ip > 0) {
      return user >= ip
        ? { allowed: false, retryAfterMs: user, scope: "user" }
        : { allowed: false, retryAfterMs: ip, scope: "ip" };
    }
    this.counters.sweep(now);
    this.counters.increment(userKey, now);
    this.counters.increment(ipKey, now);
    return { allowed: true };
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}
