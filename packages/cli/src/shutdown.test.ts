import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, type TestContext } from "vitest";
import { LOW_COST_SCRYPT_ENV } from "../../../test/support/low-cost-scrypt.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SLOW = "packages/cli/src/fixtures/slow-route.mjs";
// A start is a child process importing the sources under tsx (seconds of CPU, far more on a busy machine).
const START_TIMEOUT = 60_000;

function port(): string {
  return String(20_000 + Math.floor(Math.random() * 20_000));
}

/** Starts a command and resolves once the demo prints its URL; `exit` resolves with the exit code. */
function launch(
  test: Pick<TestContext, "onTestFinished">,
  command: string,
  args: string[],
  env: Record<string, string> = {},
) {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own: a test that fails kills the whole group, the server under pnpm too
    // (SIGKILL to pnpm alone would leave it running); the signals under test still go to the child.
    detached: true,
    // The demo hashes its users at start: at the tests' scrypt cost (test/support/low-cost-scrypt.ts).
    env: { ...process.env, ...LOW_COST_SCRYPT_ENV, ...env },
  });
  // Each test's own child, killed when that test ends (the tests run concurrently).
  test.onTestFinished(() => killGroup(child));
  let output = "";
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    exit.then((code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, ready, exit, output: () => output };
}

/** SIGKILL to the child's whole process group, if any of it may still run. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

// Concurrent: each test waits on its own process (start-up, an in-flight request, a grace period).
describe.concurrent("stopping the server", () => {
  // The README's exact lines: the PID a supervisor holds is pnpm's, which must pass SIGTERM on. (Ctrl-C
  // in a terminal signals the whole foreground process group, the server's process too: SIGINT is
  // tested on the `platform start` process itself below.) One process for both promises: it costs a
  // start under tsx (seconds of CPU on a fresh clone).
  it(
    "`pnpm start -- --port N --config f` listens on N and loads f; SIGTERM to the pnpm process lets an in-flight request finish, exit 0",
    async (test) => {
      const p = port();
      const run = launch(test, "pnpm", ["start", "--", "--port", p, "--config", SLOW]);
      const url = await run.ready;
      expect(url).toBe(`http://localhost:${p}`);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const inFlight = fetch(`${url}/slow?ms=1500`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
      await new Promise((r) => setTimeout(r, 300));
      run.child.kill("SIGTERM");
      expect(await inFlight).toEqual({ status: 200, body: { slept: 1500 } });
      expect(await run.exit).toBe(0);
      expect(await refused(url)).toBe(true);
      expect(run.output()).toContain("stopped");
    },
    START_TIMEOUT,
  );

  // One `platform start` serves the last two tests: one SIGINT, two requests in flight, a short one
  // that finishes within the grace period and a long one that outlasts it.
  it(
    "SIGINT (Ctrl-C) to the `platform start` process itself stops it gracefully with exit 0",
    async () => {
      const { url, run, short } = await graceRun();
      expect(await short).toBe(200);
      expect(await run.exit).toBe(0);
      expect(await refused(url)).toBe(true);
    },
    START_TIMEOUT,
  );

  it(
    "bounds the wait: a request longer than --shutdown-grace is dropped and the server still exits 0",
    async () => {
      const { run, long, started } = await graceRun();
      expect(await run.exit).toBe(0);
      expect(await long).toBe("dropped");
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    START_TIMEOUT,
  );
});

let graceRunStarted: ReturnType<typeof startGraceRun> | undefined;
const graceRunChildren: ChildProcess[] = [];
afterAll(() => {
  for (const c of graceRunChildren.splice(0)) killGroup(c);
});

/** The shared run of the last two tests, started by whichever asks first. */
function graceRun(): ReturnType<typeof startGraceRun> {
  graceRunStarted ??= startGraceRun();
  return graceRunStarted;
}

/**
 * `platform start --shutdown-grace 3` (direct, no pnpm): a 1 s request and a 20 s one in flight,
 * then SIGINT. The grace leaves the short request 2 s of margin on a busy machine.
 */
async function startGraceRun() {
  const run = launch({ onTestFinished: () => {} }, process.execPath, [
    "--import",
    "tsx",
    "packages/cli/src/bin.ts",
    "start",
    "--port=0",
    "--shutdown-grace",
    "3",
    "--config",
    SLOW,
  ]);
  graceRunChildren.push(run.child);
  const url = await run.ready;
  const started = Date.now();
  const short = fetch(`${url}/slow?ms=1000`).then((r) => r.status);
  const long = fetch(`${url}/slow?ms=20000`).then(
    (r) => r.status,
    () => "dropped",
  );
  await new Promise((r) => setTimeout(r, 300));
  run.child.kill("SIGINT");
  return { url, run, short, long, started };
}
