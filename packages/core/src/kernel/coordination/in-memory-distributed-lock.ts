import type { Clock } from "../clock.js";
import { PlatformError } from "../platform-error.js";
import type { DistributedLock, LeaseGrant } from "./distributed-lock.js";

/** The embedded DistributedLock: one process, one Map; the same lease rules as a database adapter. */
export class InMemoryDistributedLock implements DistributedLock {
  private readonly leases = new Map<string, LeaseGrant>();

  constructor(private readonly clock: Clock) {}

  async tryAcquire(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    checkLease(name, owner, ttlMs);
    const now = this.clock.now();
    const held = this.leases.get(name);
    if (held !== undefined && held.owner !== owner && now < held.expiresAt) return undefined;
    const grant: LeaseGrant = Object.freeze({ name, owner, expiresAt: now + ttlMs });
    this.leases.set(name, grant);
    return grant;
  }

  async release(name: string, owner: string): Promise<boolean> {
    const held = this.leases.get(name);
    if (held === undefined || held.owner !== owner) return false;
    this.leases.delete(name);
    return true;
  }
}

/** The arguments every DistributedLock adapter refuses alike (VALIDATION_FAILED). */
export function checkLease(name: string, owner: string, ttlMs: number): void {
  if (typeof name !== "string" || name === "" || typeof owner !== "string" || owner === "") {
    throw new PlatformError("VALIDATION_FAILED", "A lock needs a name and an owner");
  }
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new PlatformError("VALIDATION_FAILED", "A lease's ttl must be a finite number of milliseconds > 0");
  }
}
