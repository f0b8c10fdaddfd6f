import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { AuditSink, PasswordHasher, SessionStore, UserRepository } from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo with mongoPlugin over the wire double: users and sessions live in MongoDB.
let double: WireDouble;
let client: MongoClient;
let demo: RunningDemo;
const dbName = "platform_plugin_test";

// A durable KeyStore (MongoDB) keeps key material only sealed under a configured key-encryption key.
const properties = {
  ...NO_MFA_FOR_ADMINS,
  "platform.keys.encryption-key": "plugin-test-key-encryption-key-0123456789",
};

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
  demo = await startDemo({}, properties, { plugins: [mongoPlugin({ client, dbName })] });
  const users = demo.platform.resolve(UserRepository);
  await users.create({
    username: "dave",
    passwordHash: await demo.platform.resolve(PasswordHasher).hash("dave-pass"),
    authorities: ["ROLE_USER"],
  });
});
afterAll(async () => {
  await demo?.close();
  await client?.close();
  await double?.close();
});

describe("mongoPlugin (users and sessions)", () => {
  it("creates its indexes at start", async () => {
    const db = client.db(dbName);
    expect((await db.collection("users").listIndexes().toArray()).map((i) => i.name)).toContain(
      "usernameKey_unique",
    );
    expect((await db.collection("sessions").listIndexes().toArray()).map((i) => i.name)).toContain(
      "expiresAt_ttl",
    );
  });

  it("replaces the UserRepository and the SessionStore: sign-in reads users and writes a session to MongoDB", async () => {
    expect(demo.platform.resolve(UserRepository).constructor.name).toBe("MongoUserRepository");
    expect(demo.platform.resolve(SessionStore).constructor.name).toBe("MongoSessionStore");
    const db = client.db(dbName);
    expect(await db.collection("users").countDocuments({ usernameKey: "dave" })).toBe(1);
    const before = await db.collection("sessions").countDocuments();
    const b = new Browser(demo.base);
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "dave", password: "dave-pass", _csrf: csrf });
    expect(res.status).toBe(302);
    expect(await db.collection("sessions").countDocuments()).toBeGreaterThan(before);
    const me = await b.fetch("/api/me");
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "dave" });
  });
});

describe("mongoPlugin at stop", () => {
  it("writes the audit events still queued before it closes the client", async () => {
    const dbName = "platform_plugin_stop_test";
    const other = await startDemo({}, properties, { plugins: [mongoPlugin({ uri: double.uri, dbName })] });
    const sink = other.platform.resolve(AuditSink);
    // Recorded in bursts right up to the stop: the last bursts are still queued when stop begins.
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 10; i++) sink.record({ type: "test.at-stop", at: Date.now(), data: { burst, i } });
      await Promise.resolve();
    }
    await other.platform.stop();
    await other.close();
    expect(await client.db(dbName).collection("audit_events").countDocuments({ type: "test.at-stop" })).toBe(
      50,
    );
  });
});
