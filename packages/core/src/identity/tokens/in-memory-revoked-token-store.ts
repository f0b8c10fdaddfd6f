import type { Clock } from "../../kernel/clock.js";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";

/** Collaborators of the InMemoryRevokedAccessTokenStore. */
export interface InMemoryRevokedAccessTokenStoreOptions {
  /** Decides expiry on every read. */
  clock: Clock;
  /** How often (clock ms) expired entries are swept out on write; default 60 s. */
  sweepIntervalMs?: number;
}

/**
 * The reference RevokedAccessTokenStore (tests, embedded default): one map of `jti:<id>` and
 * `sid:<family>` keys → expiresAt. Entries are dropped when read after their expiry and swept out on
 * write at most once per `sweepIntervalMs`, so it holds only tokens that could still be accepted.
 */
export class InMemoryRevokedAccessTokenStore implements RevokedAccessTokenStore {
  private readonly entries = new Map<string, number>();
  private readonly clock: Clock;
  private readonly sweepIntervalMs: number;
  private nextSweepAt: number;

  constructor(options: InMemoryRevokedAccessTokenStoreOptions) {
    this.clock = options.clock;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.nextSweepAt = this.clock.now() + this.sweepIntervalMs;
  }

  async revoke(jti: string, expiresAt: number): Promise<void> {
    this.deny(`jti:${jti}`, expiresAt);
  }

  async revokeFamily(familyId: string, expiresAt: number): Promise<void> {
    this.deny(`sid:${familyId}`, expiresAt);
  }

  async isRevoked(jti: string, familyId?: string): Promise<boolean> {
    // `denied`, inline for the usual case: neither key held (every live token, every request).
    const token = `jti:${jti}`;
    const family = familyId === undefined ? undefined : `sid:${familyId}`;
    if (!this.entries.has(token) && (family === undefined || !this.entries.has(family))) return false;
    return this.denied(token) || (family !== undefined && this.denied(family));
  }

  /** How many entries are held, expired ones not yet swept included (for tests of boundedness). */
  size(): number {
    return this.entries.size;
  }

  private deny(key: string, expiresAt: number): void {
    const now = this.clock.now();
    this.maybeSweep(now);
    if (!(expiresAt > now)) return;
    const current = this.entries.get(key);
    if (current === undefined || current < expiresAt) this.entries.set(key, expiresAt);
  }

  private denied(key: string): boolean {
    const expiresAt = this.entries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.clock.now()) return true;
    this.entries.delete(key);
    return false;
  }

  private maybeSweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const [jti, expiresAt] of this.entries) if (expiresAt <= now) this.entries.delete(jti);
  }
}
