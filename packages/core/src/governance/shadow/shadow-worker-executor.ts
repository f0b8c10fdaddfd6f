import { Worker } from "node:worker_threads";
import type { Logger } from "../../kernel/logger.js";
import type { ShadowExecutor, ShadowExecutorStats, ShadowJob, ShadowRunResult } from "./shadow-executor.js";
import { type ShadowWorkerInit, shadowWorkerJobOf } from "./shadow-worker-engine.js";
import { shadowWorkerEntry } from "./shadow-worker-entry.js";
import { errorNameOf, type FromShadowWorker, type ToShadowWorker } from "./shadow-worker-protocol.js";

/** What the worker executor is built from. */
export interface ShadowWorkerExecutorOptions {
  readonly init: ShadowWorkerInit;
  /** Where runs go while the worker starts, after it failed, and for a bundle it does not run. */
  readonly fallback: ShadowExecutor;
  readonly logger: Logger;
  /** The worker's entry (default `shadowWorkerEntry()`); tests give a broken one. */
  readonly entry?: (() => URL) | undefined;
}

interface Pending {
  resolve(message: FromShadowWorker & { type: "answer" | "failed" }): void;
  reject(error: unknown): void;
}

/**
 * Shadow runs of the in-process model on a worker thread of their own (its own catalog and engine;
 * see shadowWorkerEngine), so a run costs the serving thread only a structured clone each way, the
 * key wrap and the chain append. The worker starts at construction; until it is ready, after it could
 * not start or died (logged once, counted; never restarted), and for a bundle its catalog does not
 * run, runs go to `fallback` on the serving thread. Never throws for the worker's sake.
 */
export class ShadowWorkerExecutor implements ShadowExecutor {
  private worker: Worker | undefined;
  private state: "starting" | "ready" | "failed" | "stopped" = "starting";
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private workerRuns = 0;
  private inThreadRuns = 0;
  private workerFailures = 0;
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
    if (reply.type === "failed")
      throw Object.assign(new Error("shadow run failed on the worker"), { code: reply.error });
    if ("unavailable" in reply.answer) return this.inThread(job, signal);
    this.workerRuns++;
    return reply.answer;
  }

  stats(): ShadowExecutorStats {
    return {
      executor: this.state === "ready" ? "worker" : "in-thread",
      workerRuns: this.workerRuns,
      inThreadRuns: this.inThreadRuns,
      workerFailures: this.workerFailures,
    };
  }

  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    this.state = "stopped";
    this.rejectPending(new Error("shadow worker stopped"));
    await this.worker?.terminate();
  }

  private ask(
    job: ShadowJob,
    signal: AbortSignal,
  ): Promise<FromShadowWorker & { type: "answer" | "failed" }> {
    const n = ++this.next;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(n);
        if (this.pending.size === 0) this.worker?.unref();
        this.post({ type: "abort", n });
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
      this.post({ type: "run", n, job: shadowWorkerJobOf(job) });
    });
  }

  private post(message: ToShadowWorker): void {
    try {
      this.worker?.postMessage(message);
    } catch (error) {
      // A job that cannot be cloned fails alone; the worker stays.
      const waiting = message.type === "run" ? this.pending.get(message.n) : undefined;
      this.pending.delete(message.n);
      waiting?.reject(error);
    }
  }

  private inThread(job: ShadowJob, signal: AbortSignal): Promise<ShadowRunResult> {
    this.inThreadRuns++;
    return this.o.fallback.run(job, signal);
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
    const waiting = this.pending.get(m.n);
    this.pending.delete(m.n);
    waiting?.resolve(m);
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
    this.rejectPending(new Error(`shadow ${what}`));
    void this.worker?.terminate().catch(() => {});
  }

  private rejectPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }
}
