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
}

/** DI token of the MfaLockouts port. */
export const MfaLockouts: InjectionToken<MfaLockouts> = Symbol.for("platform.MfaLockouts");

/** The embedded lockout list (bounded; expired entries are forgotten on read). */
export class InMemoryMfaLockouts implements MfaLockouts {
  private readonly locks = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  async lock(userId: string, until: number): Promise<void> {
    this.locks.delete(userId);
    this.locks.set(userId, Math.max(until, this.locks.get(userId) ?? 0));
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
