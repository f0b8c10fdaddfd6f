import { type ChildProcess, fork } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A bench server running in its own Node process. */
export interface ServerProcess {
  port: number;
  /** Asks the server to close and waits for the process to exit. */
  stop(): Promise<void>;
  /** The process's CPU time so far (user + system), in µs. */
  cpuMicros(): Promise<number>;
  /** Starts V8's CPU profiler in the server; the returned function stops it and writes `file`. */
  startProfile(): Promise<(file: string) => Promise<void>>;
}

/**
 * Forks `server-child.ts` (`bare` or `demo`) under tsx, dropping its stdout and writing its stderr
 * (the JSON log: one access line per request, as in production) to a file in the temporary
 * directory, whose last lines a failed start shows.
 */
export async function startServerProcess(kind: "bare" | "demo"): Promise<ServerProcess> {
  const entry = fileURLToPath(new URL("./server-child.ts", import.meta.url));
  const execArgv = ["--import", "tsx"];
  const logFile = join(tmpdir(), `bench-http-${kind}-${process.pid}.log`);
  const log = openSync(logFile, "w");
  const child = fork(entry, [kind], { execArgv, stdio: ["ignore", "ignore", log, "ipc"] });
  closeSync(log);
  const port = await new Promise<number>((resolve, reject) => {
    // Only until the server listens: a run's log grows to hundreds of megabytes, and its exit at the
    // end must not read it.
    const exited = (code: number | null): void => {
      reject(
        new Error(
          `${kind} server exited (${code}) before listening; its log (${logFile}) ends:\n${logTail(logFile)}`,
        ),
      );
    };
    child.once("exit", exited);
    child.once("message", (m: { port?: unknown }) => {
      child.off("exit", exited);
      if (typeof m.port === "number") resolve(m.port);
      else reject(new Error(`${kind} server: bad hello`));
    });
  });
  const reply = (key: string, send: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      const on = (m: Record<string, unknown>): void => {
        if (!(key in m)) return;
        child.off("message", on);
        resolve(m[key]);
      };
      child.on("message", on);
      child.send(send as string);
    });
  return {
    port,
    stop: () => stopChild(child),
    cpuMicros: async () => Number(await reply("cpu", "cpu")),
    async startProfile() {
      await reply("profiling", "profile-start");
      return async (file) => {
        const written = await reply("profiled", { profileTo: file });
        if (written !== file) throw new Error(`profiler: ${String(written)}`);
      };
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.send("stop");
  });
}

/** The last five lines of a log file, read from its last 16 KB (never the whole file). */
function logTail(file: string): string {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 16_384);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8").split("\n").slice(-5).join("\n");
  } finally {
    closeSync(fd);
  }
}
