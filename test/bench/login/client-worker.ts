import { parentPort, workerData } from "node:worker_threads";
import { describeError } from "./closed-loop.js";
import { type HttpLoadSpec, runHttpLoad } from "./http-load.js";

/** Worker-thread entry (started by http-client.ts): runs one HttpLoadSpec and posts the RawRun back. */
if (!parentPort) throw new Error("client-worker.ts runs only as a worker thread");
const port = parentPort;
runHttpLoad(workerData as HttpLoadSpec).then(
  (run) => port.postMessage({ ok: true, run }),
  (error: unknown) => port.postMessage({ ok: false, error: describeError(error) }),
);
