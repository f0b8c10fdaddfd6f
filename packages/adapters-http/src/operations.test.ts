import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditSink, HealthIndicator } from "@keyward/core/ports";
import { ACCESS_LOG_MESSAGE } from "./access-log.js";
import { rawGet, rawRequest, startTestServer, type TestServer } from "./test-support.js";

/** The value of one sample of the Prometheus text `text` (labels in the order written), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  const head = wanted === "" ? name : `${name}{${wanted}}`;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    const series = line.slice(0, space);
    // prom-client writes labels in labelNames order; compare as sets to stay independent of it.
    if (sameSeries(series, head)) return Number(line.slice(space + 1));
  }
  return undefined;
}

function sameSeries(a: string, b: string): boolean {
  const split = (s: string) => {
    const brace = s.indexOf("{");
    if (brace === -1) return { name: s, labels: [] as string[] };
    return {
      name: s.slice(0, brace),
      labels: s
        .slice(brace + 1, -1)
        .split(",")
        .sort(),
    };
  };
  const x = split(a);
  const y = split(b);
  return x.name === y.name && x.labels.join(",") === y.labels.join(",");
}

const accessLines = (t: TestServer) => t.logger.entries.filter((e) => e.message === ACCESS_LOG_MESSAGE);

describe("what operators watch: correlation id, access log, metrics, liveness and readiness", () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer((app) => {
      app.routes.add({
        method: "GET",
        path: "/items/{id}",
        name: "test.item",
        handler: () => ({ ok: true }),
      });
    });
  });
  afterAll(() => t.close());

  it("echoes a well-formed X-Request-Id as X-Request-Id and X-Correlation-Id, and logs it", async () => {
    const res = await t.fetch("/items/7", { headers: { "x-request-id": "edge-42.a_b" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("edge-42.a_b");
    expect(res.headers.get("x-correlation-id")).toBe("edge-42.a_b");
    const line = accessLines(t).at(-1);
    expect(line?.fields).toMatchObject({
      method: "GET",
      path: "/items/7",
      route: "test.item",
      status: 200,
      correlationId: "edge-42.a_b",
    });
    expect(typeof line?.fields.durationMs).toBe("number");
  });

  it("echoes the id on error answers too (404), in the header and the body, and logs the refused request", async () => {
    const res = await t.fetch("/nowhere", {
      headers: { traceparent: `00-${"ab".repeat(16)}-${"cd".repeat(8)}-01` },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBe("ab".repeat(16));
    const line = accessLines(t).at(-1);
    expect(line?.fields).toMatchObject({ path: "/nowhere", status: 404, correlationId: "ab".repeat(16) });
    expect(line?.fields.route).toBeUndefined();
  });

  it("replaces a hostile id with a new one: never echoed, never logged", async () => {
    for (const hostile of ["x".repeat(65), "caf\u00e9", "a b", "a;b=c", '"quoted"']) {
      const answer = await rawRequest(
        t.server.port,
        Buffer.from(rawGet("/health", { "X-Request-Id": hostile }), "utf8"),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
      expect(answer.headers["x-request-id"]).not.toBe(hostile);
      expect(t.logger.entries.some((e) => e.line.includes(hostile))).toBe(false);
    }
    // A control character never reaches us: Node's parser refuses the request (400, nothing echoed).
    const refused = await rawRequest(t.server.port, rawGet("/health", { "X-Request-Id": "a\u0001b" }));
    expect(refused.status).toBe(400);
    expect(refused.headers["x-request-id"]).toBeUndefined();
  });

  it("logs the canonical path without the query string (where secrets travel)", async () => {
    await t.fetch("/items/9?access_token=s3cr3t-value&password=hunter2");
    const line = accessLines(t).at(-1);
    expect(line?.fields.path).toBe("/items/9");
    expect(t.logger.entries.some((e) => e.line.includes("s3cr3t-value") || e.line.includes("hunter2"))).toBe(
      false,
    );
  });

  it("never logs a header: Authorization and Cookie values stay out of every line", async () => {
    await t.fetch("/items/1", {
      headers: { authorization: "Bearer tok-SECRET-1", cookie: "SESSION=sess-SECRET-2" },
    });
    const text = t.logger.entries.map((e) => e.line).join("\n");
    expect(text).not.toContain("tok-SECRET-1");
    expect(text).not.toContain("sess-SECRET-2");
  });

  it("cuts an overlong path in the access line", async () => {
    const long = `/${"a".repeat(5000)}`;
    const res = await t.fetch(long);
    expect(res.status).toBe(404);
    const path = accessLines(t).at(-1)?.fields.path as string;
    expect(path.length).toBeLessThanOrEqual(257);
    expect(path.endsWith("…")).toBe(true);
  });

  it("serves metrics to loopback: requests by route name and status, with a latency histogram", async () => {
    await t.fetch("/items/1");
    await t.fetch("/items/2");
    const res = await t.fetch("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const before = sample(text, "keyward_http_requests_total", { route: "test.item", status: "200" }) ?? 0;
    expect(before).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, "keyward_http_requests_total", { route: "none", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "keyward_http_request_duration_seconds_count", { route: "test.item" }),
    ).toBeGreaterThanOrEqual(2);
    await t.fetch("/items/3");
    const after = await (await t.fetch("/metrics")).text();
    expect(sample(after, "keyward_http_requests_total", { route: "test.item", status: "200" })).toBe(
      before + 1,
    );
    // Raw paths never become labels (bounded cardinality).
    expect(after).not.toContain("/items/3");
  });

  it("counts sign-ins and MFA outcomes from the audit trail (one tap)", async () => {
    const audit = t.platform.resolve(AuditSink);
    audit.record({ type: "auth.login.success", outcome: "success", data: { method: "rest" } });
    audit.record({ type: "auth.login.failure", outcome: "failure", data: { method: "form" } });
    audit.record({ type: "auth.login.failure", outcome: "failure", data: { method: "<script>" } });
    audit.record({
      type: "mfa.event.StateChangeEvent",
      data: { fromState: "OTT_CHALLENGE", toState: "MFA_SUCCESSFUL", event: "FACTOR_VERIFIED_SUCCESS" },
    });
    const text = await (await t.fetch("/metrics")).text();
    expect(sample(text, "keyward_sign_ins_total", { method: "rest", outcome: "success" })).toBe(1);
    expect(sample(text, "keyward_sign_ins_total", { method: "form", outcome: "failure" })).toBe(1);
    expect(sample(text, "keyward_sign_ins_total", { method: "other", outcome: "failure" })).toBe(1);
    expect(
      sample(text, "keyward_mfa_factor_verifications_total", { factor: "ott", outcome: "success" }),
    ).toBe(1);
    expect(sample(text, "keyward_mfa_flows_ended_total", { state: "MFA_SUCCESSFUL" })).toBe(1);
  });

  it("/health/live answers 200 while the process answers; /health keeps its answer", async () => {
    const live = await t.fetch("/health/live");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "UP" });
    expect(await (await t.fetch("/health")).json()).toEqual({ status: "UP", state: "started" });
  });

  it("the new routes take no input: a query is ignored, other methods answer 405, a body is never read", async () => {
    const ready = await t.fetch(`/health/ready?reasons=${"%3Cscript%3E".repeat(500)}`);
    expect(await ready.json()).toEqual({ status: "UP" });
    for (const path of ["/health/live", "/health/ready", "/metrics"]) {
      const res = await t.fetch(path, { method: "POST", body: "x".repeat(2_000_000) });
      expect([405, 413]).toContain(res.status);
      expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    }
    expect((await t.fetch("/metrics/extra")).status).toBe(404);
  });

  it("/health/ready answers 200 when started, 503 shutting-down once a graceful shutdown began", async () => {
    const own = await startTestServer();
    try {
      expect((await own.fetch("/health/ready")).status).toBe(200);
      own.readiness.beginShutdown();
      const res = await own.fetch("/health/ready");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "DOWN", reasons: ["shutting-down"] });
      expect((await own.fetch("/health/live")).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("/health/ready names every reason: not started, stopped, a dependency down", async () => {
    const created = await startTestServer(() => {}, { start: false });
    try {
      created.platform.container.register(HealthIndicator, {
        useValue: { name: "mongodb", health: () => ({ status: "DOWN", reason: "no primary" }) },
      });
      expect(await (await created.fetch("/health/ready")).json()).toEqual({
        status: "DOWN",
        reasons: ["not-started", "dependency-down:mongodb"],
      });
      await created.platform.start();
      const down = await created.fetch("/health/ready");
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: "DOWN", reasons: ["dependency-down:mongodb"] });
      await created.platform.stop();
      expect(
        ((await (await created.fetch("/health/ready")).json()) as { reasons: string[] }).reasons,
      ).toContain("stopped");
    } finally {
      await created.server.close(true);
    }
  });
});

describe("metrics and access log settings", () => {
  it("two platforms in one process count apart (a registry each, never the global one)", async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      for (let i = 0; i < 3; i++) await a.fetch("/health");
      const textA = await (await a.fetch("/metrics")).text();
      const textB = await (await b.fetch("/metrics")).text();
      expect(sample(textA, "keyward_http_requests_total", { route: "http.health", status: "200" })).toBe(3);
      expect(
        sample(textB, "keyward_http_requests_total", { route: "http.health", status: "200" }),
      ).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("loopback audience: a client that is not loopback (named by a trusted proxy) gets 404 NOT_FOUND", async () => {
    const t = await startTestServer(() => {}, {
      properties: { "platform.http.trusted-proxies": "loopback" },
    });
    try {
      const res = await t.fetch("/metrics", { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe("NOT_FOUND");
      expect((await t.fetch("/metrics")).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("the path is configurable; metrics and the access log can be turned off", async () => {
    const moved = await startTestServer(() => {}, {
      properties: { "platform.http.metrics.path": "/ops/prom" },
    });
    const off = await startTestServer(() => {}, {
      properties: { "platform.http.metrics.enabled": false, "platform.http.access-log.enabled": false },
    });
    try {
      expect((await moved.fetch("/ops/prom")).status).toBe(200);
      expect((await moved.fetch("/metrics")).status).toBe(404);
      expect((await off.fetch("/metrics")).status).toBe(404);
      await off.fetch("/health");
      expect(accessLines(off)).toHaveLength(0);
    } finally {
      await moved.close();
      await off.close();
    }
  });

  it("a bearer audience without a long enough token, or without the identity codes, stops createHttpApp", async () => {
    await expect(
      startTestServer(() => {}, {
        properties: {
          "platform.http.metrics.audience": "bearer",
          "platform.http.metrics.bearer-token": "short",
        },
      }),
    ).rejects.toMatchObject({ code: "CONFIGURATION_INVALID" });
    const error = await startTestServer(() => {}, {
      properties: {
        "platform.http.metrics.audience": "bearer",
        "platform.http.metrics.bearer-token": "t".repeat(40),
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONFIGURATION_INVALID" });
    expect(String((error as Error).message)).not.toContain("t".repeat(40));
  });

  it("an unknown audience stops start-up with the property's rule", async () => {
    await expect(
      startTestServer(() => {}, { properties: { "platform.http.metrics.audience": "everyone" } }),
    ).rejects.toMatchObject({ code: "PROPERTY_INVALID" });
  });
});
