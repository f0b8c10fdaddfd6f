import type { InjectionToken } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import type { SealedEvidenceStore } from "../../decisions/evidence/sealed-evidence-store.js";

/** A capture period: `from` inclusive, `to` exclusive, epoch milliseconds. */
export interface CapturePeriod {
  readonly from: number;
  readonly to: number;
}

/** Where a job stands in its period: the last package handed out (capture time, id). */
type Cursor = { readonly at: number; readonly id: string };

/** A reinspection of a capture period (the wire's ReinspectionJobJson). */
export interface ReinspectionJob extends CapturePeriod {
  readonly id: string;
  readonly state: "RUNNING" | "DONE";
  readonly requestedBy: string;
  readonly requestedAt: number;
  readonly total: number;
  readonly inspected: number;
  readonly finishedAt: number | null;
  readonly instanceId: string;
}

const PAGE = 500;
/** Most packages a job counts when it starts (its `total` is then a lower bound). */
export const REINSPECTION_COUNT_CAP = 1_000_000;

/**
 * The re-inspection jobs of this instance, one at a time: `start` counts the kept packages of the
 * period and answers the job (CONFLICT while one runs); the automatic round, under its lock, takes
 * `next` batches of the period's package ids in capture order and reports them `done`. State lives
 * in this instance's memory: a restart forgets the job (the results it saved stay), and the job
 * advances only on rounds this instance runs (docs/prompt-inspection.md).
 */
export class ReinspectionJobs {
  private job: ReinspectionJob | undefined;
  private cursor: Cursor | undefined;
  private handedOut: Cursor | undefined;

  constructor(
    private readonly o: {
      store: SealedEvidenceStore;
      now: () => number;
      newId: () => string;
      instanceId: string;
    },
  ) {}

  /** The running job, else the last one; undefined when none was asked for since the start. */
  status(): ReinspectionJob | undefined {
    return this.job && { ...this.job };
  }

  /** Starts a job over `period` for `requestedBy`; CONFLICT while another runs. */
  async start(period: CapturePeriod, requestedBy: string): Promise<ReinspectionJob> {
    if (this.job?.state === "RUNNING")
      throw new PlatformError("CONFLICT", "A reinspection is running: wait for it to finish", {
        details: { jobId: this.job.id },
      });
    const placeholder = { ...period, id: this.o.newId(), state: "RUNNING" as const, requestedBy };
    // Claimed before the count's first await, so a second POST during the count is refused too.
    this.job = {
      ...placeholder,
      requestedAt: this.o.now(),
      total: 0,
      inspected: 0,
      finishedAt: null,
      instanceId: this.o.instanceId,
    };
    this.cursor = period.from > 0 ? { at: period.from - 1, id: "\u{10FFFF}" } : undefined;
    this.handedOut = undefined;
    try {
      this.job = { ...this.job, total: await this.count(period) };
    } catch (error) {
      this.job = undefined;
      throw error;
    }
    return { ...this.job };
  }

  /** The next ids of the running job's period (at most `limit`); empty when none runs. Finishes a job with nothing left. */
  async next(limit: number): Promise<string[]> {
    const job = this.job;
    if (job?.state !== "RUNNING") return [];
    const page = await this.o.store.keptPackages(job.to, limit, this.cursor);
    const inPeriod = page.filter((e) => e.header!.at >= job.from);
    if (inPeriod.length === 0) {
      this.job = { ...job, state: "DONE", finishedAt: this.o.now() };
      return [];
    }
    const last = inPeriod.at(-1)!;
    this.handedOut = { at: last.header!.at, id: last.packageIds[0]! };
    return inPeriod.map((e) => e.packageIds[0]!);
  }

  /** The ids `next` handed out were inspected (`count` of them saved). */
  done(count: number): void {
    if (this.job?.state !== "RUNNING" || this.handedOut === undefined) return;
    this.cursor = this.handedOut;
    this.handedOut = undefined;
    this.job = { ...this.job, inspected: this.job.inspected + count };
  }

  private async count(period: CapturePeriod): Promise<number> {
    let total = 0;
    let after = this.cursor;
    for (;;) {
      const page = await this.o.store.keptPackages(period.to, PAGE, after);
      total += page.filter((e) => e.header!.at >= period.from).length;
      if (page.length < PAGE || total >= REINSPECTION_COUNT_CAP) return total;
      const last = page.at(-1)!;
      after = { at: last.header!.at, id: last.packageIds[0]! };
    }
  }
}

/** DI token of this instance's reinspection jobs. */
export const ReinspectionJobsToken: InjectionToken<ReinspectionJobs> =
  Symbol.for("platform.ReinspectionJobs");
