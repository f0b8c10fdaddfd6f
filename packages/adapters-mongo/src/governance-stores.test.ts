import "reflect-metadata";
import { createPlatform, type Platform } from "@keyward/core";
import { InstanceHeartbeatStore, ReleaseEvidenceLedger, ReleaseRegistry } from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireDouble, type WireDouble } from "../test-support/index.js";
import { mongoPlugin } from "./mongo-plugin.js";

const dbName = "governance_stores";
const SCOPE = "PLATFORM_GLOBAL";
let double: WireDouble;
const clients: MongoClient[] = [];
const platforms: Platform[] = [];

/** One more platform instance on the shared database, with its own client, as another process. */
async function startInstance(): Promise<Platform> {
  const client = await new MongoClient(double.uri).connect();
  clients.push(client);
  const platform = createPlatform({ plugins: [mongoPlugin({ client, dbName })], env: {} });
  platforms.push(platform);
  await platform.start();
  return platform;
}

function row(promptVersion: string, status: "ACTIVE" | "AVAILABLE" | "DEPRECATED") {
  return {
    registryScope: SCOPE,
    promptKey: "security-decision",
    templateKey: "default",
    promptVersion,
    status,
    contractVersion: "1.0",
    artifactHash: `sha256:${promptVersion}`,
    rollbackTargets: [],
    registeredAt: 1,
    updatedAt: 1,
  };
}

let a: Platform;
let b: Platform;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  a = await startInstance();
  b = await startInstance();
});
afterAll(async () => {
  for (const p of platforms) await p.stop();
  for (const c of clients) await c.close();
  await double?.close();
});

describe("governance stores registered by mongoPlugin", () => {
  it("replace the release registry, the evidence ledger and the heartbeats, and create their indexes at start", async () => {
    expect(a.resolve(ReleaseRegistry).constructor.name).toBe("MongoReleaseRegistry");
    expect(a.resolve(ReleaseEvidenceLedger).constructor.name).toBe("MongoReleaseEvidenceLedger");
    expect(a.resolve(InstanceHeartbeatStore).constructor.name).toBe("MongoInstanceHeartbeatStore");
    const indexes = async (name: string) =>
      (await clients[0]!.db(dbName).collection(name).listIndexes().toArray()).map((i) => i.name).sort();
    expect(await indexes("release_history")).toEqual(
      ["_id_", "at", "registryScope_at", "registryScope_promptVersion_at"].sort(),
    );
    expect(await indexes("release_evidence")).toEqual(
      ["_id_", "promptKey_promptVersion_recordedAt", "promptKey_recordedAt"].sort(),
    );
    expect(await indexes("prompt_instance_heartbeats")).toEqual(["_id_", "at"]);
  });

  it("leave exactly one winner when two instances race replaceHead on one scope, and share its head", async () => {
    const [ra, rb] = [a.resolve(ReleaseRegistry), b.resolve(ReleaseRegistry)];
    const race = (revision: number, version: string) =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? ra : rb).replaceHead(SCOPE, revision, {
            releases: [row(version, "DEPRECATED"), row(`${version}-${i}`, "ACTIVE")],
            openExecutions: [],
          }),
        ),
      );
    for (const [revision, version] of [
      [0, "v19"],
      [1, "v20"],
    ] as const) {
      const winners = (await race(revision, version)).filter((h) => h !== undefined);
      expect(winners, `from revision ${revision}`).toHaveLength(1);
      expect(await ra.head(SCOPE)).toEqual(winners[0]);
      expect(await rb.head(SCOPE)).toEqual(winners[0]);
    }
  });

  it("let every instance see the others' heartbeats on the shared database", async () => {
    const beat = (instanceId: string, at: number) => ({ instanceId, startedAt: 1, at, serving: [] });
    await a.resolve(InstanceHeartbeatStore).beat(beat("instance-a", 10));
    await b.resolve(InstanceHeartbeatStore).beat(beat("instance-b", 20));
    expect(await a.resolve(InstanceHeartbeatStore).list()).toEqual([
      beat("instance-a", 10),
      beat("instance-b", 20),
    ]);
    expect(await b.resolve(InstanceHeartbeatStore).prune(15)).toBe(1);
    expect(await a.resolve(InstanceHeartbeatStore).list()).toEqual([beat("instance-b", 20)]);
  });

  it("let an instance started later read the rows the first ones wrote", async () => {
    const written = await a.resolve(ReleaseRegistry).head(SCOPE);
    expect(written.revision).toBe(2);
    const c = await startInstance();
    expect(await c.resolve(ReleaseRegistry).head(SCOPE)).toEqual(written);
    expect(await c.resolve(ReleaseRegistry).heads()).toEqual([written]);
  });
});
