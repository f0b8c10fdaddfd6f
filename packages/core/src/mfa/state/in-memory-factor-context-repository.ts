import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { FactorContext } from "./factor-context.js";
import {
  DEFAULT_FACTOR_CONTEXT_RETENTION_MS,
  type FactorContextRepository,
} from "./factor-context-repository.js";

/** Options of the InMemoryFactorContextRepository. */
export interface InMemoryFactorContextRepositoryOptions {
  /** Decides expiry. */
  clock: Clock;
  /** How long a context is kept after its last write. Default 30 min. */
  retentionMs?: number;
  /** At most this many contexts; creating one more evicts the oldest created. Default 100_000. */
  maxContexts?: number;
}

interface Entry {
  ctx: FactorContext;
  expiresAt: number;
}

/**
 * The reference FactorContextRepository, used by tests and the embedded default. No `await` sits
 * between a check and its write, so compare-and-set is atomic on the event loop; contexts are
 * stored and returned as structured clones, so callers never share objects with the store.
 */
export class InMemoryFactorContextRepository implements FactorContextRepository {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private readonly retentionMs: number;
  private readonly maxContexts: number;

  constructor(options: InMemoryFactorContextRepositoryOptions) {
    this.clock = options.clock;
    this.retentionMs = options.retentionMs ?? DEFAULT_FACTOR_CONTEXT_RETENTION_MS;
    this.maxContexts = options.maxContexts ?? 100_000;
    if (!(this.retentionMs > 0) || !Number.isInteger(this.maxContexts) || this.maxContexts < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "retentionMs and maxContexts must be positive");
    }
  }

  async create(ctx: FactorContext): Promise<FactorContext> {
    if (typeof ctx.mfaSessionId !== "string" || ctx.mfaSessionId.length === 0) {
      throw new PlatformError("VALIDATION_FAILED", "mfaSessionId must not be empty", {
        details: { fields: ["mfaSessionId"] },
      });
    }
    if (this.live(ctx.mfaSessionId)) throw new PlatformError("CONFLICT", "The MFA session already exists");
    this.sweep();
    while (this.entries.size >= this.maxContexts) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    const stored: FactorContext = { ...structuredClone(ctx), version: 1 };
    this.entries.set(ctx.mfaSessionId, { ctx: stored, expiresAt: this.clock.now() + this.retentionMs });
    return structuredClone(stored);
  }

  async find(mfaSessionId: string): Promise<FactorContext | undefined> {
    const entry = this.live(mfaSessionId);
    return entry && structuredClone(entry.ctx);
  }

  async save(ctx: FactorContext): Promise<FactorContext> {
    const entry = this.live(ctx.mfaSessionId);
    if (!entry) throw new PlatformError("NOT_FOUND", "No such MFA session");
    if (entry.ctx.version !== ctx.version) {
      throw new PlatformError("CONFLICT", "The MFA session changed concurrently", {
        details: { expectedVersion: ctx.version },
      });
    }
    const stored: FactorContext = {
      ...structuredClone(ctx),
      version: entry.ctx.version + 1,
      createdAt: entry.ctx.createdAt,
      callerBinding: entry.ctx.callerBinding,
    };
    entry.ctx = stored;
    entry.expiresAt = this.clock.now() + this.retentionMs;
    return structuredClone(stored);
  }

  async delete(mfaSessionId: string): Promise<boolean> {
    const existed = this.live(mfaSessionId) !== undefined;
    this.entries.delete(mfaSessionId);
    return existed;
  }

  // The entry if present and not expired; an expired one is dropped on the way.
  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && this.clock.now() >= entry.expiresAt) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  // Drops expired entries from the head (oldest created first), a few per call, so memory follows use.
  private sweep(): void {
    const now = this.clock.now();
    let budget = 16;
    for (const [id, entry] of this.entries) {
      if (budget-- <= 0 || now < entry.expiresAt) break;
      this.entries.delete(id);
    }
  }
}
