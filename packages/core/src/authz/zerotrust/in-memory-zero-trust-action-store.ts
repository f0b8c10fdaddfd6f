import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type {
  ZeroTrustActionListOptions,
  ZeroTrustActionRecord,
  ZeroTrustActionRecordInput,
  ZeroTrustActionStore,
} from "./zero-trust-action-store.js";
import { checkZeroTrustListOptions, checkZeroTrustPut } from "./zero-trust-record-validation.js";

/** Options of the InMemoryZeroTrustActionStore. */
export interface InMemoryZeroTrustActionStoreOptions {
  /** Decides `at` and expiry. */
  clock: Clock;
  /**
   * At most this many records. A put of a new subject into a full store first drops expired records,
   * then the oldest written record that is not a BLOCK (the blocked list goes last), then the oldest.
   * Default 100_000.
   */
  maxRecords?: number;
}

/**
 * The reference ZeroTrustActionStore, used by tests and the embedded default. Records are flat and
 * copied in and out, so callers never share objects with the store; insertion order is write order
 * (a put re-inserts), which makes eviction oldest-written first.
 */
export class InMemoryZeroTrustActionStore implements ZeroTrustActionStore {
  private readonly records = new Map<string, ZeroTrustActionRecord>();
  private readonly clock: Clock;
  private readonly maxRecords: number;

  constructor(options: InMemoryZeroTrustActionStoreOptions) {
    this.clock = options.clock;
    this.maxRecords = options.maxRecords ?? 100_000;
    if (!Number.isInteger(this.maxRecords) || this.maxRecords < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxRecords must be a positive integer", {
        details: { maxRecords: this.maxRecords },
      });
    }
  }

  async put(record: ZeroTrustActionRecordInput, ttlMs: number): Promise<ZeroTrustActionRecord> {
    checkZeroTrustPut(record, ttlMs);
    const now = this.clock.now();
    const previous = this.live(record.subject, now);
    this.records.delete(record.subject);
    if (this.records.size >= this.maxRecords) this.makeRoom(now);
    const stored: ZeroTrustActionRecord = {
      subject: record.subject,
      action: record.action,
      ...(record.reason === undefined ? {} : { reason: record.reason }),
      source: record.source,
      at: now,
      expiresAt: now + ttlMs,
      version: (previous?.version ?? 0) + 1,
    };
    this.records.set(stored.subject, stored);
    return { ...stored };
  }

  async get(subject: string): Promise<ZeroTrustActionRecord | undefined> {
    const record = this.live(subject, this.clock.now());
    return record && { ...record };
  }

  async delete(subject: string): Promise<boolean> {
    const existed = this.live(subject, this.clock.now()) !== undefined;
    this.records.delete(subject);
    return existed;
  }

  async list(options?: ZeroTrustActionListOptions): Promise<ZeroTrustActionRecord[]> {
    const limit = checkZeroTrustListOptions(options);
    const now = this.clock.now();
    const out: ZeroTrustActionRecord[] = [];
    for (const r of this.records.values()) {
      if (now < r.expiresAt && (options?.action === undefined || r.action === options.action)) out.push(r);
    }
    out.sort((a, b) => b.at - a.at || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    return out.slice(0, limit).map((r) => ({ ...r }));
  }

  // The live record, dropping an expired one on the way.
  private live(subject: string, now: number): ZeroTrustActionRecord | undefined {
    const record = this.records.get(subject);
    if (record && now >= record.expiresAt) {
      this.records.delete(subject);
      return undefined;
    }
    return record;
  }

  private makeRoom(now: number): void {
    for (const [subject, r] of this.records) if (now >= r.expiresAt) this.records.delete(subject);
    if (this.records.size < this.maxRecords) return;
    for (const [subject, r] of this.records) {
      if (r.action !== "BLOCK") {
        this.records.delete(subject);
        return;
      }
    }
    const oldest = this.records.keys().next();
    if (!oldest.done) this.records.delete(oldest.value);
  }
}
