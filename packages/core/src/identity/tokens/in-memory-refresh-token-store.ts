import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type {
  NewRefreshTokenRecord,
  RefreshTokenRecord,
  RefreshTokenRotation,
  RefreshTokenStatus,
  RefreshTokenStore,
} from "./refresh-token-store.js";

/** Collaborators of the InMemoryRefreshTokenStore. */
export interface InMemoryRefreshTokenStoreOptions {
  /** Decides expiry on every read. */
  clock: Clock;
  /** How often (clock ms) expired records are swept out on write; default 60 s. */
  sweepIntervalMs?: number;
}

/**
 * The reference RefreshTokenStore (tests, embedded default). No method awaits between its check and its
 * write, so compare-and-set is atomic on the event loop. Expired records are dropped on read and swept
 * out on write at most once per `sweepIntervalMs`, so memory stays bounded by live tokens.
 */
export class InMemoryRefreshTokenStore implements RefreshTokenStore {
  private readonly byId = new Map<string, RefreshTokenRecord>();
  private readonly idByHash = new Map<string, string>();
  private readonly clock: Clock;
  private readonly sweepIntervalMs: number;
  private nextSweepAt: number;

  constructor(options: InMemoryRefreshTokenStoreOptions) {
    this.clock = options.clock;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.nextSweepAt = this.clock.now() + this.sweepIntervalMs;
  }

  async create(record: NewRefreshTokenRecord): Promise<RefreshTokenRecord> {
    this.maybeSweep();
    if (
      this.live(this.byId.get(record.id)) ||
      this.live(this.byId.get(this.idByHash.get(record.tokenHash) ?? ""))
    ) {
      throw new PlatformError("CONFLICT", "Refresh token id or hash already exists");
    }
    this.remove(record.id);
    const stored: RefreshTokenRecord = { ...copy(record), status: "active", version: 1 };
    this.byId.set(stored.id, stored);
    this.idByHash.set(stored.tokenHash, stored.id);
    return copy(stored);
  }

  async findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const stored = this.live(this.byId.get(this.idByHash.get(tokenHash) ?? ""));
    return stored && copy(stored);
  }

  async compareAndSetStatus(
    id: string,
    expectedVersion: number,
    status: RefreshTokenStatus,
  ): Promise<RefreshTokenRecord | undefined> {
    const stored = this.live(this.byId.get(id));
    if (!stored || stored.version !== expectedVersion || stored.status === "revoked") return undefined;
    const next: RefreshTokenRecord = { ...stored, status, version: stored.version + 1 };
    this.byId.set(id, next);
    return copy(next);
  }

  async rotate(tokenHash: string, raceWindowMs: number): Promise<RefreshTokenRotation> {
    const stored = this.live(this.byId.get(this.idByHash.get(tokenHash) ?? ""));
    if (!stored) return { outcome: "unknown" };
    const now = this.clock.now();
    if (stored.status === "active") {
      const next: RefreshTokenRecord = {
        ...stored,
        status: "rotated",
        rotatedAt: now,
        version: stored.version + 1,
      };
      this.byId.set(next.id, next);
      return { outcome: "rotated", record: copy(next) };
    }
    if (stored.status === "revoked") return { outcome: "revoked", record: copy(stored) };
    const raced = stored.rotatedAt !== undefined && now - stored.rotatedAt < raceWindowMs;
    return { outcome: raced ? "raced" : "reused", record: copy(stored) };
  }

  async revokeFamily(familyId: string): Promise<number> {
    return this.revokeWhere((r) => r.familyId === familyId);
  }

  async revokeAllForUser(userId: string): Promise<string[]> {
    const families = new Set<string>();
    this.revokeWhere((r) => {
      if (r.userId !== userId) return false;
      families.add(r.familyId);
      return true;
    });
    return [...families];
  }

  /** How many records are held, expired ones not yet swept included (for tests of boundedness). */
  size(): number {
    return this.byId.size;
  }

  private revokeWhere(match: (record: RefreshTokenRecord) => boolean): number {
    let changed = 0;
    for (const [id, stored] of this.byId) {
      if (!this.live(stored) || !match(stored) || stored.status === "revoked") continue;
      this.byId.set(id, { ...stored, status: "revoked", version: stored.version + 1 });
      changed++;
    }
    return changed;
  }

  private live(record: RefreshTokenRecord | undefined): RefreshTokenRecord | undefined {
    return record && record.expiresAt > this.clock.now() ? record : undefined;
  }

  private maybeSweep(): void {
    const now = this.clock.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const [id, stored] of this.byId) if (stored.expiresAt <= now) this.remove(id);
  }

  private remove(id: string): void {
    const stored = this.byId.get(id);
    if (!stored) return;
    this.byId.delete(id);
    if (this.idByHash.get(stored.tokenHash) === id) this.idByHash.delete(stored.tokenHash);
  }
}

function copy<T extends NewRefreshTokenRecord>(record: T): T {
  return {
    ...record,
    authentication: {
      ...record.authentication,
      authorities: [...record.authentication.authorities],
      factors: record.authentication.factors.map((f) => ({ ...f })),
    },
  };
}
