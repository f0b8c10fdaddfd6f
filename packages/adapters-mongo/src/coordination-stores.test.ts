import "reflect-metadata";
import { createPlatform, type Platform } from "@keyward/core";
import { ChangeCounters, DistributedLock } from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireDouble, type WireDouble } from "../test-support/index.js";
import { mongoPlugin } from "./mongo-plugin.js";

const dbName = "coordination_stores";
let double: WireDouble;
let client: MongoClient;
let a: Platform;
let b: Platform;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
  // Two instances over one database, as two processes would run.
  a = createPlatform({ plugins: [mongoPlugin({ client, dbName })], env: {} });
  b = createPlatform({ plugins: [mongoPlugin({ client, dbName })], env: {} });
  await a.start();
  await b.start();
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await client?.close();
  await double?.close();
});

describe("coordination stores registered by mongoPlugin", () => {
  it("replace the kernel's in-memory DistributedLock and ChangeCounters, and create the lock's index at start", async () => {
    expect(a.resolve(DistributedLock).constructor.name).toBe("MongoDistributedLock");
    expect(a.resolve(ChangeCounters).constructor.name).toBe("MongoChangeCounters");
    const indexes = await client.db(dbName).collection("platform_locks").listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(["_id_", "lapsed_ttl"]);
  });

  it("share one lease and one set of counters between the instances", async () => {
    const name = "platform.available-administrators";
    expect(await a.resolve(DistributedLock).tryAcquire(name, "instance-a", 60_000)).toBeDefined();
    expect(await b.resolve(DistributedLock).tryAcquire(name, "instance-b", 60_000)).toBeUndefined();
    expect(await a.resolve(DistributedLock).release(name, "instance-a")).toBe(true);
    expect(await b.resolve(DistributedLock).tryAcquire(name, "instance-b", 60_000)).toBeDefined();

    await a.resolve(ChangeCounters).bump("standing:u-1");
    expect(await b.resolve(ChangeCounters).bump("standing:u-1")).toBe(2);
    expect(await a.resolve(ChangeCounters).read(["standing:u-1"])).toEqual({ "standing:u-1": 2 });
  });
});
