import type { DistributedLock } from "../../kernel/coordination/distributed-lock.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { type ChainEntry, recordHashOf } from "./chain-entry.js";
import type { EvidenceChainWriter } from "./evidence-chain-writer.js";
import type { InspectionOutcomes } from "./inspection-outcomes.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";

/** The lock one instance holds while it runs a retention round. */
export const RETENTION_LOCK = "platform.sealed-evidence.retention";
const PAGE = 500;
const LEASE_MS = 10 * 60_000;

/** What one round did. */
export interface RetentionRound {
  /** False when another instance held the lock (nothing was done). */
  readonly ran: boolean;
  readonly deleted: number;
  /** Decision records past the period, deleted (they are not chained). */
  readonly recordsDeleted: number;
}

/**
 * The retention jobs: a package older than `periodMs` is deleted; one older than `cleanPeriodMs`
 * whose latest inspection found nothing wrong too; one with findings (or never inspected) keeps the
 * full period. A deletion drops the package's header and payload and is recorded in the package's
 * own chain as a DELETION entry naming it (never a silent gap). One instance runs a round at a time
 * (the DistributedLock); the round ends by checkpointing this instance's chain.
 */
export class EvidenceRetention {
  constructor(
    private readonly o: {
      store: SealedEvidenceStore;
      chain: EvidenceChainWriter;
      lock: DistributedLock;
      outcomes?: InspectionOutcomes | undefined;
      audit: AuditSink;
      now: () => number;
      owner: string;
      instanceId: string;
      periodMs: number;
      cleanPeriodMs: number;
    },
  ) {}

  /** Runs one round under the lock. */
  async runOnce(): Promise<RetentionRound> {
    const grant = await this.o.lock.tryAcquire(RETENTION_LOCK, this.o.owner, LEASE_MS);
    if (grant === undefined) return { ran: false, deleted: 0, recordsDeleted: 0 };
    try {
      const now = this.o.now();
      const deleted = (await this.expired(now - this.o.periodMs)) + (await this.clean(now));
      const recordsDeleted = await this.o.store.pruneRecords(Math.max(0, now - this.o.periodMs));
      await this.o.chain.checkpoint(this.o.instanceId);
      if (deleted + recordsDeleted > 0) this.record({ deleted, recordsDeleted });
      return { ran: true, deleted, recordsDeleted };
    } finally {
      await this.o.lock.release(RETENTION_LOCK, this.o.owner);
    }
  }

  // Past the full period: deleted whatever the inspection said.
  private async expired(before: number): Promise<number> {
    if (before <= 0) return 0;
    let count = 0;
    for (;;) {
      const page = await this.o.store.keptPackages(before, PAGE);
      if (page.length === 0) return count;
      count += await this.delete(page);
      if (page.length < PAGE) return count;
    }
  }

  // Between the clean period and the full period: deleted when the latest inspection was clean.
  private async clean(now: number): Promise<number> {
    const before = now - this.o.cleanPeriodMs;
    if (this.o.outcomes === undefined || before <= 0) return 0;
    let count = 0;
    let after: { at: number; id: string } | undefined;
    for (;;) {
      const page = await this.o.store.keptPackages(before, PAGE, after);
      if (page.length === 0) return count;
      const clean: ChainEntry[] = [];
      for (const entry of page)
        if ((await this.o.outcomes.latestInspectionOutcome(entry.packageIds[0]!)) === "CLEAN")
          clean.push(entry);
      count += await this.delete(clean);
      const last = page.at(-1)!;
      after = { at: last.header!.at, id: last.packageIds[0]! };
      if (page.length < PAGE) return count;
    }
  }

  // Recorded first, then dropped: a crash between leaves a recorded deletion of a kept package, never a gap.
  private async delete(entries: readonly ChainEntry[]): Promise<number> {
    const byChain = new Map<string, string[]>();
    for (const e of entries)
      byChain.set(e.instanceId, [...(byChain.get(e.instanceId) ?? []), e.packageIds[0]!]);
    let count = 0;
    for (const [instanceId, packageIds] of byChain) {
      const at = this.o.now();
      await this.o.chain.append({
        instanceId,
        kind: "DELETION",
        at,
        entryHash: recordHashOf("DELETION", at, packageIds),
        packageIds,
      });
      for (const id of packageIds) if (await this.o.store.dropPackage(id)) count++;
    }
    return count;
  }

  private record(data: Record<string, unknown>): void {
    try {
      this.o.audit.record({
        type: "evidence.retention.deleted",
        outcome: "info",
        principal: "system:retention",
        data,
      });
    } catch {
      // A broken sink does not undo a round.
    }
  }
}
