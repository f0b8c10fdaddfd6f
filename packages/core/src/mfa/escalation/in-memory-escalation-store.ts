import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { Escalation } from "./escalation.js";
import type { EscalationStore } from "./escalation-store.js";

/** Options of the InMemoryEscalationStore. */
export interface InMemoryEscalationStoreOptions {
  /** Decides expiry. */
  clock: Clock;
  /** At most this many escalations; creating one more evicts the oldest created. Default 10_000. */
  maxEscalations?: number;
  /** How long an escalation is kept after its `expiresAt`, so its final status can still be read. Default 30 min. */
  retentionMs?: number;
}

/**
 * The reference EscalationStore, used by tests and the embedded default. No `await` sits between a
 * check and its write, so compare-and-set is atomic on the event loop; escalations are stored and
 * returned as structured clones, so callers never share objects with the store.
 */
export class InMemoryEscalationStore implements EscalationStore {
  private readonly entries = new Map<string, Escalation>();
  private readonly clock: Clock;
  private readonly maxEscalations: number;
  private readonly retentionMs: number;

  constructor(options: InMemoryEscalationStoreOptions) {
    this.clock = options.clock;
    this.maxEscalations = options.maxEscalations ?? 10_000;
    this.retentionMs = options.retentionMs ?? 30 * 60_000;
    if (!Number.isInteger(this.maxEscalations) || this.maxEscalations < 1 || !(this.retentionMs >= 0)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "maxEscalations must be positive, retentionMs not negative",
      );
    }
  }

  async create(escalation: Escalation): Promise<Escalation> {
    if (typeof escalation.id !== "string" || escalation.id.length === 0) {
      throw new PlatformError("VALIDATION_FAILED", "The escalation id must not be empty", {
        details: { fields: ["id"] },
      });
    }
    if (this.kept(escalation.id)) throw new PlatformError("CONFLICT", "The escalation already exists");
    this.sweep();
    while (this.entries.size >= this.maxEscalations) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    const stored: Escalation = { ...structuredClone(escalation), version: 1 };
    this.entries.set(stored.id, stored);
    return this.read(stored);
  }

  async find(id: string): Promise<Escalation | undefined> {
    const stored = this.kept(id);
    return stored && this.read(stored);
  }

  async listPending(): Promise<Escalation[]> {
    const now = this.clock.now();
    const pending: Escalation[] = [];
    for (const e of this.entries.values()) {
      if (e.status === "PENDING" && now < e.expiresAt) pending.push(structuredClone(e));
    }
    return pending.sort((a, b) => a.createdAt - b.createdAt);
  }

  async compareAndSet(escalation: Escalation): Promise<Escalation> {
    const stored = this.kept(escalation.id);
    if (!stored) throw new PlatformError("NOT_FOUND", "No such escalation");
    if (this.expired(stored)) throw new PlatformError("CONFLICT", "The escalation expired");
    if (stored.version !== escalation.version) {
      throw new PlatformError("CONFLICT", "The escalation changed concurrently", {
        details: { expectedVersion: escalation.version },
      });
    }
    const next: Escalation = {
      ...structuredClone(escalation),
      version: stored.version + 1,
      createdAt: stored.createdAt,
      callerBinding: stored.callerBinding,
    };
    this.entries.set(next.id, next);
    return this.read(next);
  }

  // A copy as callers see it: a pending or approved escalation past its time reads EXPIRED.
  private read(e: Escalation): Escalation {
    const copy = structuredClone(e);
    return this.expired(e) ? { ...copy, status: "EXPIRED" } : copy;
  }

  private expired(e: Escalation): boolean {
    return (e.status === "PENDING" || e.status === "APPROVED") && this.clock.now() >= e.expiresAt;
  }

  // The entry if still kept; one past its retention is dropped on the way.
  private kept(id: string): Escalation | undefined {
    const e = this.entries.get(id);
    if (e && this.clock.now() >= e.expiresAt + this.retentionMs) {
      this.entries.delete(id);
      return undefined;
    }
    return e;
  }

  // Drops entries past their retention from the head (oldest created first), a few per call.
  private sweep(): void {
    const now = this.clock.now();
    let budget = 16;
    for (const [id, e] of this.entries) {
      if (budget-- <= 0 || now < e.expiresAt + this.retentionMs) break;
      this.entries.delete(id);
    }
  }
}
