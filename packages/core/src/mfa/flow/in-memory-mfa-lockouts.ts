import type { Clock } from "../../kernel/clock.js";
import type { MfaLockouts } from "./mfa-lockouts.js";

/** What `reserveAttempt` answers. */
type AttemptReservation = Awaited<ReturnType<MfaLockouts["reserveAttempt"]>>;

/**
 * The embedded lockout list: locks and failure windows in two Maps, each bounded by `maxEntries`
 * (default 100 000; the entry written least recently goes first); expired locks are forgotten on read.
 */
export class InMemoryMfaLockouts implements MfaLockouts {
  private readonly locks = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; windowEnd: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  async lock(userId: string, until: number): Promise<void> {
    this.setLock(userId, until);
  }

  async reserveAttempt(
    userId: string,
    weight: number,
    max: number,
    windowMs: number,
  ): Promise<AttemptReservation> {
    // One synchronous step from the lock's read to the count's write: concurrent calls cannot interleave.
    const now = this.clock.now();
    const locked = this.locks.get(userId);
    if (locked !== undefined && locked > now) return { lockedUntil: locked };
    const current = this.failures.get(userId);
    const entry = current && current.windowEnd > now ? current : { count: 0, windowEnd: now + windowMs };
    if (entry.count >= max) {
      this.failures.delete(userId);
      this.setLock(userId, now + windowMs);
      return { lockedUntil: now + windowMs };
    }
    entry.count += weight;
    this.failures.delete(userId);
    this.failures.set(userId, entry);
    while (this.failures.size > this.maxEntries)
      this.failures.delete(this.failures.keys().next().value as string);
    return { failures: entry.count };
  }

  async clearFailures(userId: string): Promise<void> {
    this.failures.delete(userId);
  }

  async unlock(userId: string): Promise<void> {
    this.locks.delete(userId);
    this.failures.delete(userId);
  }

  /** Keeps the later end; the entry becomes the most recently written. */
  private setLock(userId: string, until: number): void {
    // Read before the delete (which re-inserts the entry as the most recently written).
    const end = Math.max(until, this.locks.get(userId) ?? 0);
    this.locks.delete(userId);
    this.locks.set(userId, end);
    while (this.locks.size > this.maxEntries) this.locks.delete(this.locks.keys().next().value as string);
  }

  async lockedUntil(userId: string): Promise<number | undefined> {
    const until = this.locks.get(userId);
    if (until === undefined) return undefined;
    if (until <= this.clock.now()) {
      this.locks.delete(userId);
      return undefined;
    }
    return until;
  }
}
