import type { Clock } from "../../kernel/clock.js";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";

/** Collaborators of the InMemoryRevokedAccessTokenStore. */
export interface InMemoryRevokedAccessTokenStoreOptions {
  /** Decides expiry on every read. */
  clock: Clock;
  /** How often (clock ms) expired entries are swept out on write; default 60 s. */
  sweepIntervalMs?: number;
}

/** `isRevoked`'s answer for a token held nowhere: one settled promise (compared by identity). */
export const NOT_REVOKED: Promise<boolean> = Promise.resolve(false);
const REVOKED: Promise<boolean> = Promise.resolve(true);

/**
 * The reference RevokedAccessTokenStore (tests, embedded default): two maps, token id → expiresAt and
 * family id → expiresAt, keyed by the ids as given (a verified token's claims are shared, so a
 * lookup builds no key). Entries are dropped when read after their expiry and swept out on write at
 * most once per `sweepIntervalMs`, so it holds only tokens that could still be accepted.
 */
export class InMemoryRevokedAccessTokenStore implements RevokedAccessTokenStore {
  private readonly tokens = new Map<string, number>();
  private readonly families = new Map<string, number>();
  private readonly clock: Clock;
  private readonly sweepIntervalMs: number;
  private nextSweepAt: number;

  constructor(options: InMemoryRevokedAccessTokenStoreOptions) {
    this.clock = options.clock;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.nextSweepAt = this.clock.now() + this.sweepIntervalMs;
  }

  async revoke(jti: string, expiresAt: number): Promise<void> {
    this.deny(this.tokens, jti, expiresAt);
  }

  async revokeFamily(familyId: string, expiresAt: number): Promise<void> {
    this.deny(this.families, familyId, expiresAt);
  }

  /**
   * Not an async function: the answer is one of two shared settled promises (NOT_REVOKED for every
   * live token, on every bearer request).
   */
  isRevoked(jti: string, familyId?: string): Promise<boolean> {
    // `denied`, inline for the usual case: neither id held.
    if (!this.tokens.has(jti) && (familyId === undefined || !this.families.has(familyId))) return NOT_REVOKED;
    return this.denied(this.tokens, jti) || (familyId !== undefined && this.denied(this.families, familyId))
      ? REVOKED
      : NOT_REVOKED;
  }

  /** How many entries are held, expired ones not yet swept included (for tests of boundedness). */
  size(): number {
    return this.tokens.size + this.families.size;
  }

  private deny(entries: Map<string, number>, id: string, expiresAt: number): void {
    const now = this.clock.now();
    this.maybeSweep(now);
    if (!(expiresAt > now)) return;
    const current = entries.get(id);
    if (current === undefined || current < expiresAt) entries.set(id, expiresAt);
  }

  private denied(entries: Map<string, number>, id: string): boolean {
    const expiresAt = entries.get(id);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.clock.now()) return true;
    entries.delete(id);
    return false;
  }

  private maybeSweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const entries of [this.tokens, this.families])
      for (const [id, expiresAt] of entries) if (expiresAt <= now) entries.delete(id);
  }
}
