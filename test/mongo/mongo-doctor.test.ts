import { inspectMongoStore, mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { PLATFORM_COMMANDS, runCli, seedDemoUsers } from "@keyward/cli";
import { createPlatform, identityPlugin, mfaPlugin } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../../packages/cli/src/command-line/memory-cli-io.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

// `platform doctor`'s store check reads only: reachable, schema version, indexes a start would create.

let double: WireDouble;
beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
});
afterAll(() => double?.close());

const unstarted = () =>
  createPlatform({ env: {}, plugins: [identityPlugin, mfaPlugin], properties: {} }).container;

describe("inspectMongoStore", () => {
  it("finds every planned index missing on a fresh database, and none once a platform started on it", async () => {
    const uri = double.uri.replace(/\/\?/, "/inspection?");
    const fresh = await inspectMongoStore(uri, unstarted());
    expect(fresh).toMatchObject({ reachable: true, schemaVersion: 0 });
    expect(fresh.missingIndexes).toContainEqual({ collection: "keys", index: "purpose_current_unique" });
    expect(fresh.missingIndexes).toContainEqual({ collection: "users", index: "usernameKey_unique" });
    // Reading changed nothing.
    expect((await inspectMongoStore(uri, unstarted())).missingIndexes).toEqual(fresh.missingIndexes);

    const platform = createPlatform({
      env: {},
      properties: { "platform.keys.encryption-key": "inspection-test-key-encryption-key-0123" },
      plugins: [identityPlugin, mfaPlugin, mongoPlugin({ uri })],
    });
    await platform.start();
    await platform.stop();
    const after = await inspectMongoStore(uri, unstarted(), { usernames: ["nobody"] });
    expect(after).toMatchObject({ reachable: true, missingIndexes: [], passwordHashes: {} });
    expect(after.schemaVersion).toBe(after.latestSchemaVersion);
  });

  it("reports an unreachable server without credentials, quickly", async () => {
    const started = Date.now();
    const down = await inspectMongoStore("mongodb://operator:hunter2@127.0.0.1:1/app", unstarted(), {
      timeoutMs: 300,
    });
    expect(down.reachable).toBe(false);
    expect(JSON.stringify(down)).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("platform doctor on MongoDB", () => {
  const KEK = "doctor-test-key-encryption-key-0123456789";
  async function doctor(uri: string, env: Record<string, string> = { PLATFORM_KEYS_ENCRYPTION_KEY: KEK }) {
    const io = memoryCliIo([], env);
    const code = await runCli(
      ["doctor", "--mongo-uri", uri, "--production", "--json"],
      PLATFORM_COMMANDS,
      io,
    );
    const findings = JSON.parse(io.stdout.join("")).findings as { code: string; severity: string }[];
    return { code, codes: findings.map((f) => `${f.severity}:${f.code}`) };
  }

  it("a fresh database: indexes missing and schema behind (a start fixes both), the key-encryption key required", async () => {
    const uri = double.uri.replace(/\/\?/, "/doctor_fresh?");
    const fresh = await doctor(uri);
    expect(fresh.codes).toEqual(
      expect.arrayContaining(["warning:STORE_INDEXES_MISSING", "warning:STORE_SCHEMA_BEHIND"]),
    );
    expect(fresh.codes.filter((c) => c.startsWith("error:STORE"))).toEqual([]);
    expect((await doctor(uri, {})).codes).toContain("error:KEY_ENCRYPTION_KEY_MISSING");
  });

  it("demo users still holding their demo passwords are an error in production; an unreachable store too", async () => {
    const uri = double.uri.replace(/\/\?/, "/doctor_demo?");
    const platform = createPlatform({
      env: {},
      properties: { ...LOW_COST_SCRYPT, "platform.keys.encryption-key": KEK },
      plugins: [identityPlugin, mfaPlugin, mongoPlugin({ uri })],
    });
    await platform.start();
    await seedDemoUsers(platform);
    await platform.stop();
    const seeded = await doctor(uri);
    expect(seeded.code).toBe(1);
    expect(seeded.codes).toContain("error:DEMO_USERS_PRESENT");
    expect(seeded.codes.filter((c) => c.includes("INDEXES") || c.includes("SCHEMA"))).toEqual([]);
    const down = await doctor("mongodb://127.0.0.1:1/app");
    expect(down.codes).toContain("error:STORE_UNREACHABLE");
  });
});
