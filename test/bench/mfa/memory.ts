import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What memory-child.ts measured. */
export interface MemoryChildResult {
  /** Pending flows created in the measured interval (M). */
  sessions: number;
  /** process.memoryUsage() after full GCs, before and after creating them. */
  heapUsedBefore: number;
  heapUsedAfter: number;
  externalDelta: number;
  rssDelta: number;
  /** Wall time of creating the M flows in-process (state machine + store, no HTTP, no scrypt), `batch` at once. */
  createMs: number;
  batch: number;
  /** Mean ms of one pending flow created alone (the warm-up, one at a time). */
  sequentialMs: number;
  /** JSON size of the real pending flow (the template) and of one synthetic one. */
  templateJsonBytes: number;
  sampleJsonBytes: number;
  /** Differences in form between the real and a synthetic pending flow; empty when alike. */
  shapeDifferences: string[];
  template: { state: string; version: number; history: string[]; primaryFactors: string[] };
}

/** The memory measurement with what the report derives from it. */
export interface MemoryResult extends MemoryChildResult {
  bytesPerSession: number;
  /** The command line the child ran with. */
  command: string;
}

type ChildReply = { ok: true; result: MemoryChildResult } | { ok: false; error: string };

/**
 * Runs memory-child.ts in a fresh process, `node --expose-gc --import tsx memory-child.ts M`, so the
 * heap holds nothing of the HTTP runs and `global.gc()` is available; the result comes back over IPC.
 * Rejects (with the child's output) when it fails or takes longer than `timeoutMs`.
 */
export function measurePendingSessionMemory(sessions: number, timeoutMs: number): Promise<MemoryResult> {
  const entry = fileURLToPath(new URL("./memory-child.ts", import.meta.url));
  const execArgv = ["--expose-gc", "--import", import.meta.resolve("tsx")];
  const child = fork(entry, [String(sessions)], {
    execArgv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return new Promise<MemoryResult>((resolve, reject) => {
    let reply: ChildReply | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`memory child took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("message", (message: ChildReply) => {
      reply = message;
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (reply?.ok) {
        const r = reply.result;
        resolve({
          ...r,
          bytesPerSession: (r.heapUsedAfter - r.heapUsedBefore) / r.sessions,
          command: `node --expose-gc --import tsx test/bench/mfa/memory-child.ts ${sessions}`,
        });
        return;
      }
      const why = reply && !reply.ok ? reply.error : `exited with ${signal ?? code} without a result`;
      reject(new Error(`memory child: ${why}\n${output.trim()}`));
    });
  });
}
