import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEK_FILE } from "./demo-store.js";
import { startCommand } from "./start-command.js";

// Issue #25 item 8: a start that failed (an unreachable database, or existing data with no
// key-encryption key) wrote a new .platform/key-encryption-key anyway, and the next start read that
// wrong key as "kept from an earlier start". `platform start` in-process, each in its own directory.
const tmp = () => mkdtempSync(join(tmpdir(), "start-kek-"));
const quiet = () => {};
let double: WireDouble;

beforeAll(async () => {
  // The demo must generate its key: nothing may configure one here.
  expect(process.env.PLATFORM_KEYS_ENCRYPTION_KEY).toBeUndefined();
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
});
afterAll(async () => {
  await double?.close();
});

describe("platform start writes the key-encryption key only once it started", () => {
  it("an unreachable database: the start fails and writes nothing", async () => {
    const gone = await startWireDouble({ ttlMonitorIntervalMs: 0 });
    await gone.close();
    const cwd = tmp();
    const mongoUri = `mongodb://127.0.0.1:${gone.port}/demo?directConnection=true&serverSelectionTimeoutMS=500`;
    await expect(startCommand({ port: 0, mongoUri, cwd }, quiet)).rejects.toMatchObject({
      code: "DEPENDENCY_UNAVAILABLE",
    });
    expect(existsSync(join(cwd, ".platform"))).toBe(false);
  });

  it("a start keeps its key (0600); data sealed under it does not start elsewhere without it, and writes nothing there", async () => {
    const mongoUri = double.uri.replace("/?", "/kek_demo?");
    const first = tmp();
    const demo = await startCommand({ port: 0, mongoUri, cwd: first }, quiet);
    await demo.close({ graceMs: 0 });
    const file = join(first, DEMO_KEK_FILE);
    expect(readFileSync(file, "utf8")).toMatch(/^base64url:[A-Za-z0-9_-]{43}\n$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const elsewhere = tmp();
    const refused = await startCommand({ port: 0, mongoUri, cwd: elsewhere }, quiet).catch((e: unknown) => e);
    expect(existsSync(join(elsewhere, ".platform"))).toBe(false);
    expect(refused).toMatchObject({
      code: "CONFIGURATION_INVALID",
      message: expect.stringContaining("generated for this start and not saved"),
    });

    // Where the key is, the same data starts again.
    const again = await startCommand({ port: 0, mongoUri, cwd: first }, quiet);
    await again.close({ graceMs: 0 });
  });
});
