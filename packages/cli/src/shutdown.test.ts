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
    // The demo hashes its users at start: at the tests' scrypt cost (test/support/low-cost-scrypt.ts).
    env: { ...process.env, ...LOW_COST_SCRYPT_ENV, ...env },
  });
  // Each test's own child, killed when that test ends (the tests run concurrently).
  test.onTestFinished(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
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
  // The README's exact lines: the PID a terminal or supervisor holds is pnpm's.
  it(
    "`pnpm start -- --port N` listens on N; SIGTERM to the pnpm process stops the server, exit 0",
    async (test) => {
      const p = port();
      const run = launch(test, "pnpm", ["start", "--", "--port", p]);
      const url = await run.ready;
      expect(url).toBe(`http://localhost:${p}`);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
      expect(await refused(url)).toBe(true);
    },
    START_TIMEOUT,
  );

  it(
    "`pnpm start -- --config f` loads f; SIGINT to the pnpm process lets an in-flight request finish, exit 0",
    async (test) => {
      const p = port();
      const run = launch(test, "pnpm", ["start", "--", "--config", SLOW], { PORT: p });
      const url = await run.ready;
      expect(url).toBe(`http://localhost:${p}`);
      const inFlight = fetch(`${url}/slow?ms=1500`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
      await new Promise((r) => setTimeout(r, 300));
      run.child.kill("SIGINT");
      expect(await inFlight).toEqual({ status: 200, body: { slept: 1500 } });
      expect(await run.exit).toBe(0);
      expect(await refused(url)).toBe(true);
      expect(run.output()).toContain("stopped");
    },
    START_TIMEOUT,
  );

  // One `platform start` serves the last two tests: one SIGTERM, two requests in flight, a short one
  // that finishes within the grace period and a long one that outlasts it.
  it(
    "SIGTERM to the `platform start` process itself stops it gracefully with exit 0",
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
  for (const c of graceRunChildren.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

/** The shared run of the last two tests, started by whichever asks first. */
function graceRun(): ReturnType<typeof startGraceRun> {
  graceRunStarted ??= startGraceRun();
  return graceRunStarted;
}

/**
 * `platform start --shutdown-grace 3` (direct, no pnpm): a 1 s request and a 20 s one in flight,
 * then SIGTERM. The grace leaves the short request 2 s of margin on a busy machine.
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
  run.child.kill("SIGTERM");
  return { url, run, short, long, started };
}
