import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A bench server running in its own Node process. */
export interface ServerProcess {
  port: number;
  /** Asks the server to close and waits for the process to exit (a CPU profile is written then). */
  stop(): Promise<void>;
}

/**
 * Forks `server-child.ts` (`bare` or `demo`) under tsx, dropping its log lines on stdout and keeping
 * stderr; `cpuProfileDir` adds `--cpu-prof` so the process writes a V8 CPU profile there when it exits.
 */
export async function startServerProcess(
  kind: "bare" | "demo",
  cpuProfileDir?: string,
): Promise<ServerProcess> {
  const entry = fileURLToPath(new URL("./server-child.ts", import.meta.url));
  const execArgv = ["--import", "tsx"];
  if (cpuProfileDir) execArgv.push("--cpu-prof", "--cpu-prof-dir", cpuProfileDir);
  const child = fork(entry, [kind], { execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port?: unknown }) =>
      typeof m.port === "number" ? resolve(m.port) : reject(new Error(`${kind} server: bad hello`)),
    );
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code}) before listening`)));
  });
  return { port, stop: () => stopChild(child) };
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
