import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEK } from "./mongo-test-support.js";
import { Browser } from "../identity/identity-test-server.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo on mongoPlugin (a client it owns) over the wire double, which goes away and comes back
// on the same port while the platform keeps running.
let double: WireDouble;
let demo: RunningDemo;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  // The connection string's own timeout wins over the plugin's 3 s default (a faster test).
  const uri = `${double.uri}&serverSelectionTimeoutMS=1000`;
  demo = await startDemo(
    {},
    { ...NO_MFA_FOR_ADMINS, ...TEST_KEK },
    { plugins: [mongoPlugin({ uri, dbName: "outage" })] },
  );
  await demo.platform.resolve(UserRepository).create({
    username: "erin",
    passwordHash: await demo.platform.resolve(PasswordHasher).hash("erin-pass"),
    authorities: ["ROLE_USER"],
  });
});
afterAll(async () => {
  await demo?.close();
  await double?.close();
});

async function signedIn(): Promise<Browser> {
  const b = new Browser(demo.base);
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm("/login", { username: "erin", password: "erin-pass", _csrf: csrf });
  expect(res.status).toBe(302);
  return b;
}

describe("MongoDB goes away at run time and comes back", () => {
  it("answers 503 DEPENDENCY_UNAVAILABLE (no stack, no address), /health names mongodb DOWN, and resumes by itself", async () => {
    const b = await signedIn();
    expect((await b.fetch("/api/me")).status).toBe(200);
    const healthy = await fetch(`${demo.base}/health`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toMatchObject({ status: "UP", dependencies: { mongodb: { status: "UP" } } });

    await double.stop();
    for (let i = 0; i < 2; i++) {
      // The first request meets the dropped connection, the next one finds no server to select.
      const down = await b.fetch("/api/me", { headers: { accept: "application/json" } });
      const text = await down.text();
      expect(down.status).toBe(503);
      expect(JSON.parse(text)).toEqual({
        code: "DEPENDENCY_UNAVAILABLE",
        message: "The database is unavailable; retry later",
        dependency: "mongodb",
      });
      expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at .*\.ts/);
    }
    const health = await fetch(`${demo.base}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: "DOWN",
      state: "started",
      dependencies: { mongodb: { status: "DOWN" } },
    });

    await double.resume();
    const back = await b.fetch("/api/me");
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ username: "erin" });
    const recovered = await fetch(`${demo.base}/health`);
    expect(recovered.status).toBe(200);
    expect(await recovered.json()).toMatchObject({
      status: "UP",
      dependencies: { mongodb: { status: "UP" } },
    });
  });
});
