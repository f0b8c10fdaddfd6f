// The entry a shadow worker thread loads (see ShadowWorkerExecutor): builds the worker's engine from
// workerData, then answers `run` and `abort` messages on its parent port.
import "reflect-metadata";
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { type ShadowWorkerInit, shadowWorkerEngine } from "./shadow-worker-engine.js";
import { errorNameOf, type ToShadowWorker } from "./shadow-worker-protocol.js";

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
const running = new Map<number, AbortController>();
try {
  const engine = shadowWorkerEngine(workerData as ShadowWorkerInit);
  port.on("message", (message: ToShadowWorker) => {
    if (message.type === "abort") {
      running.get(message.n)?.abort();
      return;
    }
    const controller = new AbortController();
    running.set(message.n, controller);
    engine
      .run(message.job, controller.signal)
      .then(
        (answer) => port.postMessage({ type: "answer", n: message.n, answer }),
        (error: unknown) => port.postMessage({ type: "failed", n: message.n, error: errorNameOf(error) }),
      )
      .finally(() => running.delete(message.n));
  });
  port.postMessage({ type: "ready" });
} catch (error) {
  port.postMessage({ type: "start-failed", error: errorNameOf(error) });
}
