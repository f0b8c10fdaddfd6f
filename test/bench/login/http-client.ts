import { Worker } from "node:worker_threads";
import type { RawRun } from "./closed-loop.js";
import { assertLoopback, type HttpLoadSpec, runHttpLoad } from "./http-load.js";
import type { ClientMode } from "./options.js";

type WorkerReply = { ok: true; run: RawRun } | { ok: false; error: string };

/**
 * Runs one HTTP load run. `inline` runs the client on this thread, i.e. on the server's own event loop,
 * so client work (undici, JSON) is counted against the server. `worker` (the default) runs it in a
 * fresh worker thread with its own event loop and its own connection pool, ended after the run.
 */
export async function runHttpClient(spec: HttpLoadSpec, mode: ClientMode): Promise<RawRun> {
  assertLoopback(spec.baseUrl);
  if (mode === "inline") return runHttpLoad(spec);
  const worker = new Worker(tsWorkerBootstrap(new URL("./client-worker.ts", import.meta.url)), {
    workerData: spec,
  });
  try {
    return await new Promise<RawRun>((resolve, reject) => {
      worker.once("message", (reply: WorkerReply) =>
        reply.ok ? resolve(reply.run) : reject(new Error(`load worker: ${reply.error}`)),
      );
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`load worker exited (${code}) before answering`)));
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * Worker threads do not inherit tsx's loader (`--import` in execArgv does not reach them here), so the
 * worker starts from a tiny ESM data: module that loads the TypeScript entry through tsx's `tsImport`.
 */
export function tsWorkerBootstrap(entry: URL): URL {
  const api = import.meta.resolve("tsx/esm/api");
  const target = JSON.stringify(entry.href);
  const code = `import { tsImport } from ${JSON.stringify(api)};\nawait tsImport(${target}, ${target});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
