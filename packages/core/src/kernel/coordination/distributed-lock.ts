import type { InjectionToken } from "tsyringe";

/** A lease one owner holds on a named lock until `expiresAt`. */
export interface LeaseGrant {
  /** The lock's name, e.g. `platform.available-administrators`. */
  readonly name: string;
  /** Who holds it (an instance- and call-unique id). */
  readonly owner: string;
  /** Epoch ms (the store's Clock) at which the lease lapses unless renewed. */
  readonly expiresAt: number;
}

/**
 * Leases on named locks shared by every instance of a platform: at most one owner holds a live lease
 * on a name at any time, decided by one atomic step of the store (a compare-and-set on one record), so
 * two instances racing for a free or lapsed lock never both get it. A lease lapses at `expiresAt`
 * (checked with the Clock at acquire time), so a crashed holder blocks others for at most its ttl.
 */
export interface DistributedLock {
  /**
   * Takes the lease on `name` for `owner` for `ttlMs` when it is free, lapsed, or already held by
   * `owner` (then renewed): the grant; undefined while another owner holds a live lease.
   * VALIDATION_FAILED for an empty name or owner, or a ttl that is not a finite number > 0.
   */
  tryAcquire(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | undefined>;
  /** Gives the lease up when `owner` holds it (live or lapsed): true when it did, false otherwise. */
  release(name: string, owner: string): Promise<boolean>;
}

/** DI token of the DistributedLock port. */
export const DistributedLock: InjectionToken<DistributedLock> = Symbol.for("platform.DistributedLock");
