// Two ways a test runs the `platform` command: in this process (runCli over the same commands the
// binary runs, with scripted input; fast) and as the real binary under tsx (a child process with
// piped standard input, about 3 s of CPU each: kept for what only the binary does).
import { PLATFORM_COMMANDS, runCli } from "@keyward/cli";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { memoryCliIo, type ScriptedLine } from "../../packages/cli/src/command-line/memory-cli-io.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What one `platform` run ended with: its exit code and everything it wrote. */
export interface PlatformRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Each write as the terminal shows it: the binary's CliIo ends every write with a newline.
const asTerminal = (writes: readonly string[]) =>
  writes.map((t) => (t.endsWith("\n") ? t : `${t}\n`)).join("");

/** Runs `platform ...args` in this process with `env` as its environment, answering prompts from `feed`. */
export async function platformInProcess(
  args: string[],
  feed: ScriptedLine[] = [],
  env: Record<string, string | undefined> = {},
): Promise<PlatformRun> {
  const io = memoryCliIo(feed, env);
  const code = await runCli(args, PLATFORM_COMMANDS, io);
  return { code, stdout: asTerminal(io.stdout), stderr: asTerminal(io.stderr) };
}

/**
 * Runs the real `platform` binary (`node --import tsx packages/cli/src/bin.ts`) with `env` added to
 * this process's environment. The first line of `feed` is written to its standard input at once
 * (`--password-stdin` reads without a prompt), each later one after the binary has written to stderr
 * again (it read the previous line and went on): a line that waits for something (the mailed code)
 * starts waiting only then, however long the binary took to start.
 */
export function platformBinary(
  args: string[],
  feed: ScriptedLine[] = [],
  env: Record<string, string> = {},
): Promise<PlatformRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "packages/cli/src/bin.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exited = false;
  let prompted: () => void = () => {};
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
    prompted();
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      exited = true;
      prompted();
      resolve(code);
    }),
  );
  const nextPrompt = () => new Promise<void>((resolve) => (prompted = resolve));
  (async () => {
    let wroteSince = Promise.resolve();
    for (const [i, line] of feed.entries()) {
      if (i > 0) await wroteSince;
      if (exited) break;
      wroteSince = nextPrompt();
      child.stdin.write(`${typeof line === "string" ? line : await line()}\n`);
    }
    child.stdin.end();
  })();
  return exit.then((code) => ({ code, stdout, stderr }));
}
