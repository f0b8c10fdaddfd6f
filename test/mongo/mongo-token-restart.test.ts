import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { AuditLog, KeyStore } from "@keyward/core/ports";
import { type CommandStartedEvent, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo over the wire double, stopped and started again on the same database: the JWT signing
// key, the refresh-token families and the audit trail live in MongoDB, so tokens outlive the restart.
let double: WireDouble;
let client: MongoClient;
const dbName = "platform_token_restart_test";
const properties = {
  ...NO_MFA_FOR_ADMINS,
  "platform.keys.encryption-key": "restart-test-key-encryption-key-0123456789",
};
const demos: RunningDemo[] = [];

async function start(): Promise<RunningDemo> {
  const demo = await startDemo({}, properties, { plugins: [mongoPlugin({ client, dbName })] });
  demos.push(demo);
  return demo;
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri, { monitorCommands: true }).connect();
});
afterAll(async () => {
  for (const demo of demos) await demo.close().catch(() => undefined);
  await client?.close();
  await double?.close();
});

describe("tokens across a restart on MongoDB", () => {
  it("verifies an access token and rotates a refresh token issued before the restart", async () => {
    const first = await start();
    expect(first.platform.resolve(KeyStore).constructor.name).toBe("MongoKeyStore");
    const login = await fetch(
      `${first.base}/api/login`,
      json("POST", { username: "user", password: "password" }),
    );
    expect(login.status).toBe(200);
    const issued = (await login.json()) as Tokens;
    await first.platform.resolve(AuditLog).query(); // writes what the first instance queued
    await first.close();

    const second = await start();
    const bearer = { headers: { authorization: `Bearer ${issued.accessToken}`, accept: "application/json" } };
    await second.platform.resolve(AuditLog).query(); // the start's own audit events, written first
    // The new process's first request of the user also reads its zero-trust record (then cached).
    expect((await fetch(`${second.base}/api/me`, bearer)).status).toBe(200);
    const sent: string[] = [];
    const listener = (e: CommandStartedEvent) => sent.push(e.commandName);
    client.on("commandStarted", listener);
    const me = await fetch(`${second.base}/api/me`, bearer).finally(() =>
      client.off("commandStarted", listener),
    );
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "user" });
    // Once warm, a bearer GET /api/me asks MongoDB one thing: is the token revoked.
    expect(sent).toEqual(["find"]);

    const refreshed = await fetch(
      `${second.base}/api/token/refresh`,
      json("POST", { refreshToken: issued.refreshToken }),
    );
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Tokens;
    expect(next.refreshToken).not.toBe(issued.refreshToken);
  });

  it("refuses to start without a key-encryption key: the Mongo KeyStore is durable", async () => {
    const refused = startDemo({}, NO_MFA_FOR_ADMINS, { plugins: [mongoPlugin({ client, dbName })] });
    await expect(refused).rejects.toMatchObject({
      code: "CONFIGURATION_INVALID",
      message: expect.stringContaining("platform.keys.encryption-key"),
    });
  });

  it("keeps one sealed signing key in the database, and the first instance's audit trail", async () => {
    const db = client.db(dbName);
    const keys = await db.collection("keys").find({ purpose: "jwt.signing" }).toArray();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ current: true });
    expect(JSON.stringify(keys[0]?.material)).not.toMatch(/"d":|BEGIN/);
    const running = demos.at(-1);
    const events = await running?.platform.resolve(AuditLog).query({ principal: "user" });
    expect(events?.length).toBeGreaterThan(0);
  });
});
