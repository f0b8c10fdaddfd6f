import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import {
  LOGIN_THROTTLE_DEFAULTS,
  type LoginThrottle,
  type LoginThrottleLimits,
  type ThrottleKey,
  type ThrottleVerdict,
} from "./login-throttle.js";
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

interface Counter {
  count: number;
  windowStart: number;
  /** The account key of a pair counter (undefined on address counters). */
  account?: string | undefined;
}

/**
 * The embedded LoginThrottle: counters in a Map, fixed windows that open at a key's first failure,
 * read from the Clock port. No timers: ended windows are ignored on read and swept from the front of
 * the Map on write (the Map is ordered by window start, since a counter is re-inserted when its window
 * restarts). Bounded: past `maxEntries` the counter with the oldest window, the one closest to its
 * end anyway, is dropped. A flood of distinct keys can therefore make it forget counters early; each
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
  private readonly counters = new Map<string, Counter>();
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
  }

  /** How many counters are held (ended windows not yet swept included); for tests and diagnostics. */
  get size(): number {
    return this.counters.size;
  }

  async check(key: ThrottleKey): Promise<ThrottleVerdict> {
    const now = this.clock.now();
    const keys = throttleKeys(key);
    const pair = this.blockedFor(keys.accountAndIp, this.limits.maxFailuresPerAccountAndIp, now);
    const ip = this.blockedFor(keys.ip, this.limits.maxFailuresPerIp, now);
    if (pair === 0 && ip === 0) return { allowed: true };
    // When both block, the caller must wait for the later of the two.
    return pair >= ip
      ? { allowed: false, retryAfterMs: pair, scope: "account-ip" }
      : { allowed: false, retryAfterMs: ip, scope: "ip" };
  }

  async recordFailure(key: ThrottleKey): Promise<void> {
    const now = this.clock.now();
    this.sweep(now);
    const keys = throttleKeys(key);
    this.increment(keys.accountAndIp, now, keys.account);
    this.increment(keys.ip, now);
  }

  async clearAccount(username: string): Promise<void> {
    const account = throttleAccountKey(username);
    for (const [storageKey, counter] of this.counters) {
      if (counter.account === account) this.counters.delete(storageKey);
    }
  }

  async recordSuccess(key: ThrottleKey): Promise<void> {
    this.counters.delete(throttleKeys(key).accountAndIp);
  }

  /** Milliseconds until the counter of `storageKey` stops blocking, or 0 when it does not block. */
  private blockedFor(storageKey: string, max: number, now: number): number {
    const counter = this.live(storageKey, now);
    if (!counter || counter.count < max) return 0;
    // Clamped: a clock set backwards must not produce a wait longer than one window.
    return Math.min(this.limits.windowMs, counter.windowStart + this.limits.windowMs - now);
  }

  private live(storageKey: string, now: number): Counter | undefined {
    const counter = this.counters.get(storageKey);
    return counter && now < counter.windowStart + this.limits.windowMs ? counter : undefined;
  }

  private increment(storageKey: string, now: number, account?: string): void {
    const counter = this.live(storageKey, now);
    if (counter) {
      counter.count++;
      return;
    }
    // A new window goes to the back of the Map, keeping it ordered by window start.
    this.counters.delete(storageKey);
    this.counters.set(storageKey, { count: 1, windowStart: now, account });
    for (const oldest of this.counters.keys()) {
      if (this.counters.size <= this.maxEntries) break;
      this.counters.delete(oldest);
    }
  }

  /** Drops ended windows from the front; stops at the first live one (the rest started later). */
  private sweep(now: number): void {
    for (const [storageKey, counter] of this.counters) {
      if (now < counter.windowStart + this.limits.windowMs) break;
      this.counters.delete(storageKey);
    }
  }
}
