import { MessageChannel, Worker } from "node:worker_threads";
import { tsWorkerBootstrap } from "../login/http-client.js";
import { assertLoopback } from "../login/http-load.js";
import type { ClientMode } from "../login/options.js";
import type { MfaCodeCapture } from "./code-capture.js";
import { type MfaLoadSpec, type MfaRawRun, runMfaLoad } from "./flow-load.js";

type WorkerReply = { ok: true; run: MfaRawRun } | { ok: false; error: string };

/**
 * Runs one MFA flow load run, like the login bench's runHttpClient: `inline` on the server's own
 * event loop, `worker` (the default) in a fresh worker thread, which fetches each flow's code from
 * `capture` (on the server thread) over a MessagePort.
 */
export async function runMfaClient(
  spec: MfaLoadSpec,
  mode: ClientMode,
  capture: MfaCodeCapture,
): Promise<MfaRawRun> {
  assertLoopback(spec.baseUrl);
  if (mode === "inline") return runMfaLoad(spec, capture);
  const channel = new MessageChannel();
  capture.serve(channel.port1);
  const worker = new Worker(tsWorkerBootstrap(new URL("./flow-worker.ts", import.meta.url)), {
    workerData: { spec, codes: channel.port2 },
    transferList: [channel.port2],
  });
  try {
    return await new Promise<MfaRawRun>((resolve, reject) => {
      worker.once("message", (reply: WorkerReply) =>
        reply.ok ? resolve(reply.run) : reject(new Error(`MFA load worker: ${reply.error}`)),
      );
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`MFA load worker exited (${code}) before answering`)));
    });
  } finally {
    await worker.terminate();
    channel.port1.close();
  }
}
