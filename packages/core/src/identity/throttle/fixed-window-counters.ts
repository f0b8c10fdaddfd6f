/** One counter: how many in its window, when the window opened, and the owner's tag (if any). */
interface Counter<Tag> {
  count: number;
  windowStart: number;
  tag: Tag | undefined;
}

/**
 * The in-memory counters behind the InMemoryLoginThrottle and the InMemoryOttGenerationLimiter: fixed
 * windows of one length that open at a key's first count, in a Map ordered by window start (a counter
 * is re-inserted when its window restarts). No timers: ended windows are ignored on read and swept
 * from the front on write. Bounded: past `maxEntries` the counter with the oldest window, the one
 * closest to its end anyway, is dropped. Times are passed in, so callers read their Clock once per call.
 * Synchronous on purpose: an adapter that checks and counts several keys in one call does so in one
 * step, without an `await` between them.
 *
 * Not a port: each limiter's port decides atomically what to count (the OTT limiter counts two keys or
 * neither), which a database adapter does in its own way (see docs/decisions/persistence.md).
 */
export class FixedWindowCounters<Tag = never> {
  private readonly counters = new Map<string, Counter<Tag>>();

  /** `windowMs` and `maxEntries` are positive integers, checked by the adapter that owns the counters. */
  constructor(
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  /** Counters held (ended windows not yet swept included). */
  get size(): number {
    return this.counters.size;
  }

  /**
   * Milliseconds until the counter of `key` stops blocking at `max`, or 0 when it does not block.
   * Clamped to one window, so a clock set backwards never asks for a longer wait.
   */
  blockedFor(key: string, max: number, now: number): number {
    const counter = this.live(key, now);
    if (!counter || counter.count < max) return 0;
    return Math.min(this.windowMs, counter.windowStart + this.windowMs - now);
  }

  /** Counts one for `key`, opening a window at `now` if none is live; `tag` marks a new window's owner. */
  increment(key: string, now: number, tag?: Tag): void {
    const counter = this.live(key, now);
    if (counter) {
      counter.count++;
      return;
    }
    // A new window goes to the back of the Map, keeping it ordered by window start.
    this.counters.delete(key);
    this.counters.set(key, { count: 1, windowStart: now, tag });
    for (const oldest of this.counters.keys()) {
      if (this.counters.size <= this.maxEntries) break;
      this.counters.delete(oldest);
    }
  }

  /** Forgets the counter of `key`. */
  delete(key: string): void {
    this.counters.delete(key);
  }

  /** Forgets every counter whose window was opened with `tag`. */
  deleteTagged(tag: Tag): void {
    for (const [key, counter] of this.counters) {
      if (counter.tag === tag) this.counters.delete(key);
    }
  }

  /** Drops ended windows from the front; stops at the first live one (the rest started later). */
  sweep(now: number): void {
    for (const [key, counter] of this.counters) {
      if (now < counter.windowStart + this.windowMs) break;
      this.counters.delete(key);
    }
  }

  private live(key: string, now: number): Counter<Tag> | undefined {
    const counter = this.counters.get(key);
    return counter && now < counter.windowStart + this.windowMs ? counter : undefined;
  }
}
