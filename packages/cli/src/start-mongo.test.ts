import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOW_COST_SCRYPT_ENV } from "../../../test/support/low-cost-scrypt.js";
import { withEnv } from "../../../test/support/with-env.js";
import { startCommand } from "./start-command.js";

// `platform start --mongo-uri …`: a failed start as a user runs it (the real command through tsx), a
// start on the wire double in this process.
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = "packages/cli/src/bin.ts";
const children: ChildProcess[] = [];
let double: WireDouble;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGTERM");
});
afterAll(async () => {
  await double?.close();
});

// A configured key-encryption key, so the test writes nothing into the repository's .platform/.
// The demo hashes its users at start: at the tests' scrypt cost (test/support/low-cost-scrypt.ts).
const ENV = { PLATFORM_KEYS_ENCRYPTION_KEY: "k".repeat(32), PORT: "", ...LOW_COST_SCRYPT_ENV };

function spawnCli(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return { child, output: () => ({ stdout, stderr }) };
}

// A start is a child process importing the sources under tsx (seconds of CPU on a busy machine).
const START_TIMEOUT = 60_000;
const freePort = () => 20_000 + Math.floor(Math.random() * 20_000);

describe("platform start --mongo-uri", { timeout: START_TIMEOUT }, () => {
  it("exits non-zero with one clear line when MongoDB cannot be reached: no stack, no password, nothing listening", async () => {
    const gone = await startWireDouble({ ttlMonitorIntervalMs: 0 });
    await gone.close();
    const port = freePort();
    const uri = `mongodb://demo:s3cret@127.0.0.1:${gone.port}/demo?directConnection=true&serverSelectionTimeoutMS=500`;
    const { child, output } = spawnCli(["start", "--port", String(port), "--mongo-uri", uri]);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const { stdout, stderr } = output();
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^platform: DEPENDENCY_UNAVAILABLE: .*MongoDB at 127\\.0\\.0\\.1:${gone.port}/demo cannot be reached`,
      ),
    );
    expect(`${stdout}${stderr}`).not.toMatch(/s3cret|\n\s+at /);
    expect(stdout).not.toContain("listening on");
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  // In process (startCommand, the start-up lines through its `out`): the binary's own part, the one
  // clear line and the exit code of a failed start, is the test above.
  it("runs the demo on MongoDB and says so in its start-up lines", async () => {
    const lines: string[] = [];
    const mongoUri = double.uri.replace("/?", "/cli_demo?");
    const running = await withEnv(ENV, () =>
      startCommand({ port: 0, mongoUri, cwd: ROOT }, (line) => lines.push(line)),
    );
    try {
      expect(lines.join("\n")).toContain(`store: MongoDB 127.0.0.1:${double.port}/cli_demo`);
      const health = await fetch(`${running.url}/health`);
      expect(await health.json()).toMatchObject({
        status: "UP",
        dependencies: { mongodb: { status: "UP" } },
      });
    } finally {
      await running.close({ graceMs: 0 });
    }
  });
});
