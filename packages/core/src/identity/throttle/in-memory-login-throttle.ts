import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import {
  LOGIN_THROTTLE_DEFAULTS,
  type LoginThrottle,
  type LoginThrottleLimits,
  type ThrottleKey,
  type ThrottleVerdict,
} from "./login-throttle.js";
import { FixedWindowCounters } from "./fixed-window-counters.js";
import { throttleAccountKey, throttleKeys } from "./throttle-keys.js";

/** Options of the InMemoryLoginThrottle; every limit defaults to `LOGIN_THROTTLE_DEFAULTS`. */
export interface InMemoryLoginThrottleOptions extends Partial<LoginThrottleLimits> {
  /** Where time comes from; windows open and end by this clock only. */
  clock: Clock;
  /** Counters kept at most (pairs and addresses together); the oldest window goes first. Default 100 000. */
  maxEntries?: number;
}

/** Default of `InMemoryLoginThrottleOptions.maxEntries`: about 20 MB of counters at most (~190 bytes each). */
export const IN_MEMORY_THROTTLE_MAX_ENTRIES = 100_000;

/**
 * The embedded LoginThrottle on FixedWindowCounters: fixed windows that open at a key's first failure,
 * read from the Clock port. No timers: ended windows are ignored on read and swept on write. Bounded:
 * past `maxEntries` the counter with the oldest window, the one closest to its end anyway, is dropped. A flood of distinct keys can therefore make it forget counters early; each
 * such key costs the attacker a password hash on our side and the address limit still applies.
 *
 * Why not rate-limiter-flexible: its memory store reads `Date.now()` and arms a `setTimeout` per key
 * (tests would need fake timers, and a million keys mean a million timers), counts whole seconds, and
 * has no entry bound; its MongoDB store brings its own collection handling into a package the core may
 * not depend on. Login throttling also needs exactly two counters with "success clears one of them",
 * which is a few dozen lines on our own port. The port lets the MongoDB adapter implement the very
 * same semantics, checked by the same contract suite, with exact times from a ManualClock.
 */
export class InMemoryLoginThrottle implements LoginThrottle {
  /** Pair counters are tagged with their account key, so an unlock finds them all. */
  private readonly counters: FixedWindowCounters<string>;
  private readonly clock: Clock;
  private readonly limits: LoginThrottleLimits;
  private readonly maxEntries: number;

  constructor(options: InMemoryLoginThrottleOptions) {
    this.clock = options.clock;
    this.limits = {
      maxFailuresPerAccountAndIp:
        options.maxFailuresPerAccountAndIp ?? LOGIN_THROTTLE_DEFAULTS.maxFailuresPerAccountAndIp,
      maxFailuresPerIp: options.maxFailuresPerIp ?? LOGIN_THROTTLE_DEFAULTS.maxFailuresPerIp,
      windowMs: options.windowMs ?? LOGIN_THROTTLE_DEFAULTS.windowMs,
    };
    this.maxEntries = options.maxEntries ?? IN_MEMORY_THROTTLE_MAX_ENTRIES;
    for (const [name, value] of Object.entries({ ...this.limits, maxEntries: this.maxEntries })) {
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
    this.counters = new FixedWindowCounters(this.limits.windowMs, this.maxEntries);
  }

  /** How many counters are held (ended windows not yet swept included); for tests and diagnostics. */
  get size(): number {
    return this.counters.size;
  }

  async check(key: ThrottleKey): Promise<ThrottleVerdict> {
    const now = this.clock.now();
    const keys = throttleKeys(key);
    const pair = this.counters.blockedFor(keys.accountAndIp, this.limits.maxFailuresPerAccountAndIp, now);
    const ip = this.counters.blockedFor(keys.ip, this.limits.maxFailuresPerIp, now);
    if (pair === 0 && ip === 0) return { allowed: true };
    // When both block, the caller must wait for the later of the two.
    return pair >= ip
      ? { allowed: false, retryAfterMs: pair, scope: "account-ip" }
      : { allowed: false, retryAfterMs: ip, scope: "ip" };
  }

  async recordFailure(key: ThrottleKey): Promise<void> {
    const now = this.clock.now();
    this.counters.sweep(now);
    const keys = throttleKeys(key);
    this.counters.increment(keys.accountAndIp, now, keys.account);
    this.counters.increment(keys.ip, now);
  }

  async clearAccount(username: string): Promise<void> {
    this.counters.deleteTagged(throttleAccountKey(username));
  }

  async recordSuccess(key: ThrottleKey): Promise<void> {
    this.counters.delete(throttleKeys(key).accountAndIp);
  }
}
