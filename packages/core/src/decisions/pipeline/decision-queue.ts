/** A unit of work of the queue: gets an AbortSignal that aborts at the per-job timeout. */
export type DecisionJob = (signal: AbortSignal) => Promise<void>;

/** Counters of a DecisionQueue. */
export interface DecisionQueueStats {
  readonly accepted: number;
  /** Refused because `capacity` jobs were already waiting. */
  readonly dropped: number;
  readonly completed: number;
  readonly failed: number;
  readonly timedOut: number;
  readonly waiting: number;
  readonly running: number;
}

/** Options of the DecisionQueue. */
export interface DecisionQueueOptions {
  /** Jobs that may wait (running ones not counted). */
  readonly capacity: number;
  /** Jobs run at once. */
  readonly concurrency: number;
  /** Budget of one job: its signal aborts, and the queue moves on, when it passes. */
  readonly timeoutMs: number;
  /** Told of each job that failed or timed out (never throws into the queue). */
  readonly onFailure?: (reason: "error" | "timeout", error: unknown, tag: string) => void;
}

/**
 * A bounded FIFO of jobs run with limited concurrency. `offer` never awaits a job and never throws:
 * it answers false when the queue is full. A job past its timeout is aborted and its slot freed at
 * once, whatever the job does with the signal.
 */
export class DecisionQueue {
  private readonly waiting: { job: DecisionJob; tag: string }[] = [];
  private running = 0;
  private counts = { accepted: 0, dropped: 0, completed: 0, failed: 0, timedOut: 0 };
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly o: DecisionQueueOptions) {}

  /** Queues `job`; false (counted) when `capacity` jobs already wait. */
  offer(job: DecisionJob, tag = ""): boolean {
    if (this.waiting.length >= this.o.capacity) {
      this.counts.dropped++;
      return false;
    }
    this.counts.accepted++;
    this.waiting.push({ job, tag });
    this.pump();
    return true;
  }

  /** The counters now. */
  stats(): DecisionQueueStats {
    return { ...this.counts, waiting: this.waiting.length, running: this.running };
  }

  /** Resolves when nothing waits or runs (tests, and the plugin's stop hook). */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.o.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running++;
      void this.run(next.job, next.tag).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.waiting.length === 0) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async run(job: DecisionJob, tag: string): Promise<void> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.o.timeoutMs);
    });
    try {
      // Deferred so a job that throws synchronously becomes a rejection.
      const work = Promise.resolve().then(() => job(controller.signal));
      const outcome = await Promise.race([work.then(() => "done" as const), deadline]);
      if (outcome === "timeout") {
        controller.abort(new Error("decision timed out"));
        work.catch(() => {}); // its late failure is the timeout's, already counted
        this.counts.timedOut++;
        this.tell("timeout", undefined, tag);
      } else {
        this.counts.completed++;
      }
    } catch (error) {
      this.counts.failed++;
      this.tell("error", error, tag);
    } finally {
      clearTimeout(timer);
    }
  }

  private tell(reason: "error" | "timeout", error: unknown, tag: string): void {
    try {
      this.o.onFailure?.(reason, error, tag);
    } catch {
      // A broken reporter must not stop the queue.
    }
  }
}
