import type { InjectionToken } from "tsyringe";
import type { Clock } from "../../kernel/clock.js";

/**
 * Users locked out of sign-in after too many failed MFA attempts (`accountLockoutDurationMs`),
 * enforced at the next primary login on every chain.
 */
export interface MfaLockouts {
  lock(userId: string, until: number): Promise<void>;
  /** The lock's end (epoch ms) while it lasts, else undefined. */
  lockedUntil(userId: string): Promise<number | undefined>;
  /**
   * Counts a failed factor for the user across every flow within `windowMs`; at `max` failures the
   * user is locked for `windowMs` and the lock's end is returned.
   */
  recordFailure(userId: string, max: number, windowMs: number): Promise<number | undefined>;
  /** Forgets the user's failures (a factor verified). */
  clearFailures(userId: string): Promise<void>;
  /** Ends the user's lock and forgets their failures (an administrator's unlock). */
  unlock(userId: string): Promise<void>;
}

/** DI token of the MfaLockouts port. */
export const MfaLockouts: InjectionToken<MfaLockouts> = Symbol.for("platform.MfaLockouts");

/** The embedded lockout list (bounded; expired entries are forgotten on read). */
export class InMemoryMfaLockouts implements MfaLockouts {
  private readonly locks = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; windowEnd: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  async lock(userId: string, until: number): Promise<void> {
    this.locks.delete(userId);
    this.locks.set(userId, Math.max(until, this.locks.get(userId) ?? 0));
    while (this.locks.size > this.maxEntries) this.locks.delete(this.locks.keys().next().value as string);
  }

  async recordFailure(userId: string, max: number, windowMs: number): Promise<number | undefined> {
    const now = this.clock.now();
    const current = this.failures.get(userId);
    const entry = current && current.windowEnd > now ? current : { count: 0, windowEnd: now + windowMs };
    entry.count++;
    this.failures.delete(userId);
    this.failures.set(userId, entry);
    while (this.failures.size > this.maxEntries)
      this.failures.delete(this.failures.keys().next().value as string);
    if (entry.count < max) return undefined;
    this.failures.delete(userId);
    await this.lock(userId, now + windowMs);
    return now + windowMs;
  }

  async clearFailures(userId: string): Promise<void> {
    this.failures.delete(userId);
  }

  async unlock(userId: string): Promise<void> {
    this.locks.delete(userId);
    this.failures.delete(userId);
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
