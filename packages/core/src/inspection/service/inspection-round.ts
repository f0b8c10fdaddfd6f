import type { SealedEvidenceStore } from "../../decisions/evidence/sealed-evidence-store.js";
import { sampleBucketOf } from "../../decisions/evidence/evidence-capture.js";
import type { InjectionToken } from "tsyringe";
import type { DistributedLock } from "../../kernel/coordination/distributed-lock.js";
import { INSPECTOR_VERSION } from "../inspection-result.js";
import type { InspectionResultStore } from "../results/inspection-result-store.js";
import type { PromptInspection, ReleaseRowLookup } from "./prompt-inspection.js";
import type { ReinspectionJobs } from "./reinspection-jobs.js";

/** The lock one instance holds while it runs an inspection round. */
export const INSPECTION_LOCK = "platform.prompt-inspection.round";
const LEASE_MS = 5 * 60_000;
const PAGE = 500;
/** Most kept packages one round looks through for uninspected ones (it goes on from there next round). */
const SCAN_PER_ROUND = 20 * PAGE;
/** Rounds after which the scan starts again from the oldest package (a package sealed late, a failed save). */
export const RESCAN_EVERY_ROUNDS = 120;

/** What one round did. */
export interface InspectionRoundReport {
  /** False when another instance held the lock (nothing was done). */
  readonly ran: boolean;
  /** Packages inspected for the first time by this inspector version. */
  readonly inspected: number;
  /** Packages inspected again for the running reinspection job. */
  readonly reinspected: number;
}

/** True when package `id` falls in the inspected share: a stable hash, so every instance agrees. */
export const inSample = (id: string, samplePercent: number): boolean =>
  samplePercent >= 100 || sampleBucketOf(id) < samplePercent;

/**
 * The automatic round (spec, "Inspector rules"): under one DistributedLock across instances, the
 * oldest kept packages that the current inspector version has not inspected, up to the batch size,
 * those whose package id falls in `sample-percent`; a new inspector version finds every package
 * uninspected again. Then up to a batch of the running reinspection job's period. Runs on the
 * scheduler's timer, never on a decision's path. Remembers how far it found every package done, and
 * starts again from the oldest every RESCAN_EVERY_ROUNDS rounds.
 */
export class InspectionRound {
  private scannedThrough: { at: number; id: string } | undefined;
  private rounds = 0;

  constructor(
    private readonly o: {
      inspection: PromptInspection;
      store: SealedEvidenceStore;
      results: InspectionResultStore;
      jobs: ReinspectionJobs;
      lock: DistributedLock;
      owner: string;
      batchSize: number;
      samplePercent: number;
      now: () => number;
      /** Runs after the packages, still under the lock (canary health). */
      after?: (() => Promise<void>) | undefined;
    },
  ) {}

  /** One round under the lock. */
  async runOnce(): Promise<InspectionRoundReport> {
    const grant = await this.o.lock.tryAcquire(INSPECTION_LOCK, this.o.owner, LEASE_MS);
    if (grant === undefined) return { ran: false, inspected: 0, reinspected: 0 };
    try {
      if (this.rounds++ % RESCAN_EVERY_ROUNDS === 0) this.scannedThrough = undefined;
      const rows = await this.o.inspection.releaseRows();
      const inspected = await this.inspectAll(await this.uninspected(), rows).catch((error: unknown) => {
        // The scan mark moved past the batch: start again from the oldest, so none is skipped.
        this.scannedThrough = undefined;
        throw error;
      });
      const ids = await this.o.jobs.next(this.o.batchSize);
      const reinspected = await this.inspectAll(ids, rows);
      if (ids.length) this.o.jobs.done(reinspected);
      await this.o.after?.();
      return { ran: true, inspected, reinspected };
    } finally {
      await this.o.lock.release(INSPECTION_LOCK, this.o.owner);
    }
  }

  private async inspectAll(ids: readonly string[], rows: ReleaseRowLookup | undefined): Promise<number> {
    let count = 0;
    for (const id of ids) if (await this.o.inspection.inspect(id, rows)) count++;
    return count;
  }

  // Oldest first; the scan mark moves past every package found done (or out of the sample), and past the batch.
  private async uninspected(): Promise<string[]> {
    const picked: string[] = [];
    let after = this.scannedThrough;
    let contiguous = true;
    for (let scanned = 0; scanned < SCAN_PER_ROUND && picked.length < this.o.batchSize; ) {
      const page = await this.o.store.keptPackages(this.o.now() + 1, PAGE, after);
      scanned += page.length;
      const sampled = page.map((e) => e.packageIds[0]!).filter((id) => inSample(id, this.o.samplePercent));
      const done = await this.o.results.inspected(sampled, INSPECTOR_VERSION);
      for (const entry of page) {
        const id = entry.packageIds[0]!;
        const mark = { at: entry.header!.at, id };
        if (inSample(id, this.o.samplePercent) && !done.has(id)) {
          if (picked.length === this.o.batchSize) {
            contiguous = false;
            break;
          }
          picked.push(id);
        }
        if (contiguous) this.scannedThrough = mark;
      }
      if (page.length < PAGE || !contiguous) break;
      after = { at: page.at(-1)!.header!.at, id: page.at(-1)!.packageIds[0]! };
    }
    return picked;
  }
}

/** DI token of the automatic round (the plugin's scheduler runs it; a host or a test may run one at once). */
export const InspectionRoundToken: InjectionToken<InspectionRound> = Symbol.for("platform.InspectionRound");
