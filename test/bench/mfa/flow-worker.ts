// The worker is its own entry point: tsyringe (through @keyward/core) needs the Reflect polyfill.
import "reflect-metadata";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { describeError } from "../login/closed-loop.js";
import { portCodeSource } from "./code-capture.js";
import { type MfaLoadSpec, runMfaLoad } from "./flow-load.js";

/**
 * Worker-thread entry (started by flow-client.ts): runs one MfaLoadSpec, asking the server thread
 * for each flow's code over the transferred port, and posts the MfaRawRun back.
 */
if (!parentPort) throw new Error("flow-worker.ts runs only as a worker thread");
const port = parentPort;
const { spec, codes } = workerData as { spec: MfaLoadSpec; codes: MessagePort };
const source = portCodeSource(codes);
runMfaLoad(spec, source)
  .then(
    (run) => port.postMessage({ ok: true, run }),
    (error: unknown) => port.postMessage({ ok: false, error: describeError(error) }),
  )
  .finally(() => source.close());
