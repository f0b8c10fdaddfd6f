import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LOW_COST_SCRYPT_ENV } from "../../../test/support/low-cost-scrypt.js";
import { withEnv } from "../../../test/support/with-env.js";
import { memoryCliIo } from "./command-line/memory-cli-io.js";
import { runCli } from "./command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "./commands/index.js";
import { startCommand } from "./start-command.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = "packages/cli/src/bin.ts";
// A start is a child process importing the sources under tsx (seconds of CPU on a busy machine).
const START_TIMEOUT = 60_000;
/** The file's one child process, the shared start (stopped after the last test). */
const sharedChildren: ChildProcess[] = [];

/** Runs the real `platform` command through tsx, as `pnpm start` does, and waits for its URL line. */
function startCli(
  args: string[],
  env: Record<string, string>,
  owner: ChildProcess[],
): Promise<{ url: string; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
    cwd: ROOT,
    // The demo hashes its users at start: at the tests' scrypt cost (test/support/low-cost-scrypt.ts).
    env: { ...process.env, ...LOW_COST_SCRYPT_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  owner.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (m) resolve({ url: m[1]!, output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

/**
 * Runs `platform ...args` in this process (runCli over the binary's commands): for answers decided
 * before any server starts, where a child process would only add tsx's ~3 s of loading.
 */
async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const io = memoryCliIo();
  const code = await runCli(args, PLATFORM_COMMANDS, io);
  return { code, stdout: io.stdout.join("\n"), stderr: io.stderr.join("\n") };
}

afterAll(() => {
  for (const c of sharedChildren.splice(0)) c.kill("SIGTERM");
});

// One start serves the two tests that only read from it: the port from PORT (no --port) and an ESM
// host configuration. The others run in this process (the TypeScript configuration, the refusals).
const SHARED_PORT = String(20_000 + Math.floor(Math.random() * 20_000));
let shared: Promise<{ url: string; output: string }> | undefined;

/** `PORT=… platform start --config host-config.mjs`, started by whichever test asks first. */
function sharedStart(): Promise<{ url: string; output: string }> {
  shared ??= startCli(
    ["start", "--config", "packages/cli/src/fixtures/host-config.mjs"],
    { PORT: SHARED_PORT },
    sharedChildren,
  );
  return shared;
}

describe("platform start", { timeout: START_TIMEOUT }, () => {
  it("listens on the PORT from the environment and prints http://localhost:PORT", async () => {
    const { url, output } = await sharedStart();
    expect(url).toBe(`http://localhost:${SHARED_PORT}`);
    expect(output).toContain(`${url}/health`);
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toEqual({ status: "UP", state: "started" });
    expect((await fetch(url)).headers.get("content-type")).toContain("text/html");
    // The browser SDK is built at start (no build step) and served with an ETag, revalidated.
    const sdk = await fetch(`${url}/js/platform-mfa-sdk.js`);
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get("cache-control")).toBe("no-cache");
    expect(await sdk.text()).toContain("2.2.0");
    const again = await fetch(`${url}/js/platform-mfa-sdk.js`, {
      headers: { "if-none-match": sdk.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
  });

  it("loads an ESM host configuration (properties and routes)", async () => {
    const { url, output } = await sharedStart();
    expect(output).toContain("config: packages/cli/src/fixtures/host-config.mjs");
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ from: "mjs" });
    const big = await fetch(`${url}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(3000) }),
    });
    expect(big.status).toBe(413);
  });

  // In process: the start command loads a .ts configuration through tsx's own loader (tsImport, not
  // vitest's transform), so this proves the same thing without a second child process.
  it("loads a TypeScript host configuration with decorators through tsx", async () => {
    const config = "packages/cli/src/fixtures/host-config.ts";
    const running = await withEnv(LOW_COST_SCRYPT_ENV, () =>
      startCommand({ port: 0, config, cwd: ROOT }, () => {}),
    );
    try {
      expect(await (await fetch(`${running.url}/hello`)).json()).toEqual({ from: "ts" });
    } finally {
      await running.close({ graceMs: 0 });
    }
  });

  it("prints the command list for --help and each command's options for `start --help`, exit 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("start");
    const start = await run(["start", "--help"]);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain("--config <file>");
  });

  it("exits 2 with the usage on a bad option, and 1 naming the problem on a bad config", async () => {
    const bad = await run(["start", "--bogus"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option: --bogus");
    const missing = await run(["start", "--port", "0", "--config", "nope.mjs"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Cannot load config module nope.mjs");
  });

  it("refuses a configuration's mistyped top-level key and names the module of a mistyped property", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-config-"));
    const typoKey = join(dir, "typo-key.mjs");
    writeFileSync(typoKey, 'export default { propertes: { "platform.http.max-body-size": "1kb" } };\n');
    const keyRun = await run(["start", "--port", "0", "--config", typoKey]);
    expect(keyRun.code).toBe(1);
    expect(keyRun.stderr).toContain(
      `Config module ${typoKey}: unknown key "propertes" (did you mean properties?)`,
    );
    const typoProperty = join(dir, "typo-property.mjs");
    writeFileSync(typoProperty, 'export default { properties: { "platform.http.max-body-sise": "1kb" } };\n');
    const propertyRun = await run(["start", "--port", "0", "--config", typoProperty]);
    expect(propertyRun.code).toBe(1);
    expect(propertyRun.stderr).toContain(
      `Unknown property platform.http.max-body-sise (from config module ${typoProperty}); did you mean platform.http.max-body-size?`,
    );
  });

  // In process (the property comes from process.env, set for this test only): the binary's exit code
  // 1 on a failed start is proved by start-mongo.test.ts.
  it("stops start-up on a bad property value, naming key, value and rule", async () => {
    const r = await withEnv({ PLATFORM_HTTP_MAX_BODY_SIZE: "huge" }, () => run(["start", "--port", "0"]));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'PROPERTY_INVALID: Property platform.http.max-body-size="huge" (from env PLATFORM_HTTP_MAX_BODY_SIZE) must be a byte size',
    );
  });
});
