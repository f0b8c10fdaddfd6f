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
   * Takes one attempt at a factor for the user before its answer is judged, in one atomic step, and
   * counts it as `weight` failures within the window the first failure opened (`windowMs`) until a
   * right answer clears them. Refused (`{ lockedUntil }`) while the user is locked, and when `max` or
   * more failures are already counted (answers still being judged included): that refusal locks the
   * user for `windowMs`. Otherwise `{ failures }`, the count with this attempt; a wrong answer whose
   * count reached `max` locks the user (`lock`). So concurrent answers can never get more than `max`
   * judged, however long judging one takes.
   */
  reserveAttempt(
    userId: string,
    weight: number,
    max: number,
    windowMs: number,
  ): Promise<{ readonly failures: number } | { readonly lockedUntil: number }>;
  /** Forgets the user's failures (a factor verified). */
  clearFailures(userId: string): Promise<void>;
  /** Ends the user's lock and forgets their failures (an administrator's unlock). */
  unlock(userId: string): Promise<void>;
}

/** DI token of the MfaLockouts port. */
export const MfaLockouts: InjectionToken<MfaLockouts> = Symbol.for("platform.MfaLockouts");
