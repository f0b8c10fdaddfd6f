import { Worker } from "node:worker_threads";
import type { Logger } from "../../kernel/logger.js";
import type { ShadowExecutor, ShadowExecutorStats, ShadowJob, ShadowRunResult } from "./shadow-executor.js";
import { type ShadowWorkerInit, shadowWorkerJobOf } from "./shadow-worker-engine.js";
import { shadowWorkerEntry } from "./shadow-worker-entry.js";
import {
  errorNameOf,
  type FromShadowWorker,
  type NumberedShadowAnswer,
  type NumberedShadowJob,
  type ToShadowWorker,
} from "./shadow-worker-protocol.js";

/** Runs posted to the worker in one message at most (the runner may hand over as many at once). */
export const SHADOW_WORKER_BATCH_MAX = 32;
/** How long the first run of a batch waits for others before the batch is posted. */
export const SHADOW_WORKER_BATCH_WINDOW_MS = 100;

/** What the worker executor is built from. */
export interface ShadowWorkerExecutorOptions {
  readonly init: ShadowWorkerInit;
  /** Where runs go while the worker starts, after it failed, and for a bundle it does not run. */
  readonly fallback: ShadowExecutor;
  readonly logger: Logger;
  /** The worker's entry (default `shadowWorkerEntry()`); tests give a broken one. */
  readonly entry?: (() => URL) | undefined;
  /** How long a batch collects runs before it is posted (default SHADOW_WORKER_BATCH_WINDOW_MS). */
  readonly batchWindowMs?: number | undefined;
}

interface Pending {
  resolve(answer: NumberedShadowAnswer): void;
  reject(error: unknown): void;
}

/**
 * Shadow runs of the in-process model on a worker thread of their own (its own catalog and engine;
 * see shadowWorkerEngine), so a run costs the serving thread only a structured clone each way, the
 * key wrap and the chain append. Runs are posted in batches (up to SHADOW_WORKER_BATCH_MAX, collected
 * for the batch window) and answered in batches, so the threads wake each other once per batch, not
 * per run: shadow runs are background work, their evidence may wait a window. The worker starts at
 * construction; until it is ready, after it could not start or died (logged once, counted; never
 * restarted), and for a bundle its catalog does not run, runs go to `fallback` on the serving thread. Never throws for the worker's sake.
 */
export class ShadowWorkerExecutor implements ShadowExecutor {
  private worker: Worker | undefined;
  private state: "starting" | "ready" | "failed" | "stopped" = "starting";
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private outbox: NumberedShadowJob[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Runs the runner may hand over at once: a whole batch. */
  readonly concurrency = SHADOW_WORKER_BATCH_MAX;
  private workerRuns = 0;
  private workerBatches = 0;
  private inThreadRuns = 0;
  private workerFailures = 0;
  private inThreadTail: Promise<void> = Promise.resolve();
  /** Settles when the worker is ready (true) or will not be (false). */
  readonly started: Promise<boolean>;

  constructor(private readonly o: ShadowWorkerExecutorOptions) {
    this.started = new Promise((resolve) => {
      try {
        const worker = new Worker((o.entry ?? shadowWorkerEntry)(), { workerData: o.init });
        worker.unref();
        this.worker = worker;
        worker.on("message", (m: FromShadowWorker) => this.onMessage(m, resolve));
        worker.on("error", (error) => this.fail("worker error", error, resolve));
        worker.on("exit", (code) => this.fail("worker exited", code, resolve));
      } catch (error) {
        this.fail("worker did not start", error, resolve);
      }
    });
  }

  async run(job: ShadowJob, signal: AbortSignal): Promise<ShadowRunResult> {
    signal.throwIfAborted();
    if (this.state !== "ready") return this.inThread(job, signal);
    const reply = await this.ask(job, signal);
    if ("error" in reply)
      throw Object.assign(new Error("shadow run failed on the worker"), { code: reply.error });
    if ("unavailable" in reply.answer) return this.inThread(job, signal);
    this.workerRuns++;
    return reply.answer;
  }

  stats(): ShadowExecutorStats {
    return {
      executor: this.state === "ready" ? "worker" : "in-thread",
      workerRuns: this.workerRuns,
      workerBatches: this.workerBatches,
      inThreadRuns: this.inThreadRuns,
      workerFailures: this.workerFailures,
    };
  }

  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    this.state = "stopped";
    clearTimeout(this.flushTimer);
    this.outbox = [];
    this.rejectPending(new Error("shadow worker stopped"));
    await this.worker?.terminate();
  }

  private ask(job: ShadowJob, signal: AbortSignal): Promise<NumberedShadowAnswer> {
    const n = ++this.next;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(n);
        if (this.pending.size === 0) this.worker?.unref();
        this.outbox = this.outbox.filter((j) => j.n !== n);
        this.postQuietly({ type: "abort", n });
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        signal.removeEventListener("abort", onAbort);
        if (this.pending.size === 0) this.worker?.unref();
      };
      // Held while a run is out, so a process that drains its runs at stop does not exit under them.
      if (this.pending.size === 0) this.worker?.ref();
      this.pending.set(n, {
        resolve: (m) => {
          settle();
          resolve(m);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      this.enqueue({ n, job: shadowWorkerJobOf(job) });
    });
  }

  /** Adds a run to the batch being collected: posted when full, else when the window closes. */
  private enqueue(item: NumberedShadowJob): void {
    this.outbox.push(item);
    if (this.outbox.length >= SHADOW_WORKER_BATCH_MAX) this.flush();
    else if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flush(), this.o.batchWindowMs ?? SHADOW_WORKER_BATCH_WINDOW_MS);
      this.flushTimer.unref();
    }
  }

  /** Posts the collected batch (runs aborted meanwhile left out). */
  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const jobs = this.outbox.filter((j) => this.pending.has(j.n));
    this.outbox = [];
    if (jobs.length === 0) return;
    try {
      this.post({ type: "runs", jobs });
    } catch {
      // A job that cannot be cloned must fail alone: post them one by one, and fail only those.
      for (const job of jobs) this.postAlone(job);
    }
  }

  private postAlone(job: NumberedShadowJob): void {
    try {
      this.post({ type: "runs", jobs: [job] });
    } catch (error) {
      const waiting = this.pending.get(job.n);
      this.pending.delete(job.n);
      waiting?.reject(error);
    }
  }

  private post(message: ToShadowWorker): void {
    this.worker?.postMessage(message);
    if (message.type === "runs") this.workerBatches++;
  }

  /**
   * A run on the serving thread, one at a time as the runner ran them before batches: the runner
   * hands this executor a batch at once, which must not become a burst of in-thread runs while the
   * worker starts or after it failed.
   */
  private inThread(job: ShadowJob, signal: AbortSignal): Promise<ShadowRunResult> {
    this.inThreadRuns++;
    const run = this.inThreadTail.then(() => {
      signal.throwIfAborted();
      return this.o.fallback.run(job, signal);
    });
    this.inThreadTail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private onMessage(m: FromShadowWorker, started: (ok: boolean) => void): void {
    if (m.type === "ready") {
      if (this.state === "starting") this.state = "ready";
      started(this.state === "ready");
      return;
    }
    if (m.type === "start-failed") {
      this.fail("worker could not build its engine", m.error, started);
      return;
    }
    for (const answer of m.answers) {
      const waiting = this.pending.get(answer.n);
      this.pending.delete(answer.n);
      waiting?.resolve(answer);
    }
  }

  private postQuietly(message: ToShadowWorker): void {
    try {
      this.post(message);
    } catch {
      // An abort that cannot be posted changes nothing here: the run was rejected already.
    }
  }

  /** The worker is gone for good: its runs fail (counted by the runner), later runs go in-thread. */
  private fail(what: string, cause: unknown, started: (ok: boolean) => void): void {
    started(false);
    if (this.state === "failed" || this.state === "stopped") return;
    this.state = "failed";
    this.workerFailures++;
    const detail =
      typeof cause === "number"
        ? { exitCode: cause }
        : { error: typeof cause === "string" ? cause : errorNameOf(cause) };
    this.o.logger.warn(`shadow ${what}; shadow runs go on the serving thread`, detail);
    clearTimeout(this.flushTimer);
    this.outbox = [];
    this.rejectPending(new Error(`shadow ${what}`));
    void this.worker?.terminate().catch(() => {});
  }

  private rejectPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }
}
