import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { DEMO_USERS } from "@keyward/cli";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEK } from "./mongo-test-support.js";
import { json, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo seeds its users into MongoDB only where they are missing: a database that already holds
// an account of a demo user's name (a restart, an operator's change) keeps it as it is.
let double: WireDouble;
let client: MongoClient;
const demos: RunningDemo[] = [];
const dbName = "demo_seed";

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
});
afterAll(async () => {
  for (const demo of demos) await demo.close();
  await client?.close();
  await double?.close();
});

const demoOnMongo = async () => {
  const demo = await startDemo({}, TEST_KEK, { plugins: [mongoPlugin({ client, dbName })] });
  demos.push(demo);
  return demo;
};

describe("seeding the demo users into MongoDB", () => {
  it("creates the missing ones and never overwrites an existing account; two instances at once seed each user once", async () => {
    const first = await demoOnMongo();
    const users = client
      .db(dbName)
      .collection<{ usernameKey: string; passwordHash?: string; version: number }>("users");
    // An operator changed `user`'s password (any hash the demo did not write).
    await users.updateOne(
      { usernameKey: "user" },
      { $set: { passwordHash: "changed-by-operator" }, $inc: { version: 1 } },
    );
    await first.close();
    demos.splice(0);

    const [a] = await Promise.all([demoOnMongo(), demoOnMongo()]);
    for (const u of DEMO_USERS) expect(await users.countDocuments({ usernameKey: u.username })).toBe(1);
    expect(await users.findOne({ usernameKey: "user" })).toMatchObject({
      passwordHash: "changed-by-operator",
      version: 2,
    });
    // The demo's own password no longer opens the changed account.
    const res = await fetch(`${a!.base}/api/login`, json("POST", { username: "user", password: "password" }));
    expect(res.status).toBe(401);
  });
});

describe("seeding the demo policies into MongoDB", () => {
  it("three instances starting together on an empty database leave each demo policy once", async () => {
    const db = "demo_seed_policies";
    const started = await Promise.all(
      [1, 2, 3].map(() => startDemo({}, TEST_KEK, { plugins: [mongoPlugin({ client, dbName: db })] })),
    );
    demos.push(...started);
    const names = (await client.db(db).collection<{ name: string }>("policies").find({}).toArray()).map(
      (p) => p.name,
    );
    expect(names.sort()).toEqual([...new Set(names)].sort());
    expect(names).toHaveLength(3);
  });
});
