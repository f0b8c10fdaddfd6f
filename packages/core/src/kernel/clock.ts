import type { InjectionToken } from "tsyringe";

/** Where time comes from: every expiry, TTL and timestamp in the platform reads this port. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** DI token of the Clock port. */
export const Clock: InjectionToken<Clock> = Symbol.for("platform.Clock");

/** The real clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock tests move by hand, so expiry is exact. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.current += ms;
  }
  /** Sets the time. */
  set(epochMs: number): void {
    this.current = epochMs;
  }
}
