// The entry a shadow worker thread loads (see ShadowWorkerExecutor): builds the worker's engine from
// workerData, then answers `run` and `abort` messages on its parent port.
import "reflect-metadata";
import { parentPort, workerData } from "node:worker_threads";
import { type ShadowWorkerInit, shadowWorkerEngine } from "./shadow-worker-engine.js";
import { errorNameOf, type ToShadowWorker } from "./shadow-worker-protocol.js";

const port = parentPort!;
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
