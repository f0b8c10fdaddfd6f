// The entry a shadow worker thread loads (see ShadowWorkerExecutor): builds the worker's engine from
// workerData, then answers batches of runs (`runs`) in order, one `answers` message per batch, and
// takes `abort`s on its parent port.
import "reflect-metadata";
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { type ShadowWorkerInit, shadowWorkerEngine } from "./shadow-worker-engine.js";
import {
  errorNameOf,
  type NumberedShadowAnswer,
  type NumberedShadowJob,
  type ToShadowWorker,
} from "./shadow-worker-protocol.js";

/** The worker thread's nice value: shadow runs are background work and yield the core to serving. */
const SHADOW_WORKER_NICENESS = 19;

/**
 * Lowers this thread's scheduling priority (Linux: setpriority on the thread's id, read from
 * /proc/thread-self). On a machine with no idle core, waking the worker would otherwise preempt the
 * serving thread; at nice 19 it runs in the serving thread's gaps. Best effort: elsewhere a no-op.
 */
function yieldToServing(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, SHADOW_WORKER_NICENESS);
  } catch {
    // No /proc or not permitted: the worker runs at the process's priority.
  }
}

const port = parentPort!;
yieldToServing();
/** Jobs received and not yet started; an abort takes its job out (bounded by the jobs in flight). */
const queued = new Set<number>();
try {
  const engine = shadowWorkerEngine(workerData as ShadowWorkerInit);
  /** Runs a batch one job after another and answers it in one message (one wake-up of the serving thread). */
  const runBatch = async (jobs: readonly NumberedShadowJob[]): Promise<void> => {
    const answers: NumberedShadowAnswer[] = [];
    for (const { n, job } of jobs) {
      // Aborted before it started: skipped. An abort that comes later finds the job answered (ignored there).
      if (!queued.delete(n)) continue;
      try {
        answers.push({ n, answer: await engine.run(job, new AbortController().signal) });
      } catch (error) {
        answers.push({ n, error: errorNameOf(error) });
      }
    }
    port.postMessage({ type: "answers", answers });
  };
  let batches = Promise.resolve();
  port.on("message", (message: ToShadowWorker) => {
    if (message.type === "abort") {
      queued.delete(message.n);
      return;
    }
    for (const { n } of message.jobs) queued.add(n);
    batches = batches.then(() => runBatch(message.jobs));
  });
  port.postMessage({ type: "ready" });
} catch (error) {
  port.postMessage({ type: "start-failed", error: errorNameOf(error) });
}
