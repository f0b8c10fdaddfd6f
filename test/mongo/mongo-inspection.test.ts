import { inspectMongoStore, mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { createPlatform, identityPlugin, mfaPlugin } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
    const after = await inspectMongoStore(uri, unstarted());
    expect(after).toMatchObject({ reachable: true, missingIndexes: [] });
    expect(after.schemaVersion).toBe(after.latestSchemaVersion);
  });

  it("reports an unreachable server without credentials, quickly", async () => {
    const started = Date.now();
    const down = await inspectMongoStore("mongodb://operator:hunter2@127.0.0.1:1/app", unstarted(), 300);
    expect(down.reachable).toBe(false);
    expect(JSON.stringify(down)).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
