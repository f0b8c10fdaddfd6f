import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HealthIndicator } from "@keyward/core/ports";
import { startTestServer, type TestServer } from "./test-support.js";

describe("health route", () => {
  let started: TestServer;
  let created: TestServer;

  beforeAll(async () => {
    started = await startTestServer();
    created = await startTestServer(() => {}, { start: false, app: { healthPath: "/ops/health" } });
  });
  afterAll(async () => {
    await started.close();
    await created.close();
  });

  it("declares that it calls no protected method (no caller context needed)", () => {
    const health = started.routes.list().find((r) => r.meta?.kind === "health");
    expect(health?.callerContext).toBe(false);
  });

  it("answers 200 UP with the state once the platform is started", async () => {
    const res = await started.fetch("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "UP", state: "started" });
  });

  it("answers 503 DOWN before start, on the configured path", async () => {
    const res = await created.fetch("/ops/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "DOWN" });
    expect((await created.fetch("/health")).status).toBe(404);
  });

  it("answers 503 DOWN after stop", async () => {
    const t = await startTestServer();
    expect((await t.fetch("/health")).status).toBe(200);
    await t.platform.stop();
    const res = await t.fetch("/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "DOWN" });
    await t.server.close(true);
  });
});

describe("health route with dependency indicators", () => {
  it("adds the dependencies, and answers 503 DOWN naming the one that is down; a throwing indicator is DOWN", async () => {
    const server = await startTestServer();
    let mongo: "UP" | "DOWN" = "UP";
    const mongodb: HealthIndicator = {
      name: "mongodb",
      health: () => ({ status: mongo, reason: "no primary" }),
    };
    const vault: HealthIndicator = {
      name: "vault",
      health: () => {
        throw new Error("secret-token-in-message");
      },
    };
    server.platform.container.register(HealthIndicator, { useValue: mongodb });
    try {
      const up = await server.fetch("/health");
      expect(up.status).toBe(200);
      expect(await up.json()).toEqual({
        status: "UP",
        state: "started",
        dependencies: { mongodb: { status: "UP" } },
      });
      mongo = "DOWN";
      const down = await server.fetch("/health");
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({
        status: "DOWN",
        state: "started",
        dependencies: { mongodb: { status: "DOWN", reason: "no primary" } },
      });
    } finally {
      await server.close();
    }
    const failing = await startTestServer();
    failing.platform.container.register(HealthIndicator, { useValue: vault });
    try {
      const res = await failing.fetch("/health");
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text).dependencies).toEqual({
        vault: { status: "DOWN", reason: "the health check failed" },
      });
      expect(text).not.toContain("secret-token");
    } finally {
      await failing.close();
    }
  });
});
