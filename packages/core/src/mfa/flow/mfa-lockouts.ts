import type { InjectionToken } from "tsyringe";

/**
 * Users locked out of sign-in after too many failed MFA attempts (`accountLockoutDurationMs`),
 * enforced at the next primary login on every chain. The `describeMfaLockoutsContract` suite
 * (`@keyward/core/testing`) pins the semantics for every adapter.
 */
export interface MfaLockouts {
  /** Locks the user until `until` (epoch ms); an earlier end never shortens a lock that lasts longer. */
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
