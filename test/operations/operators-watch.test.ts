import { ACCESS_LOG_MESSAGE } from "@keyward/adapters-http";
import type { PlatformPlugin } from "@keyward/core";
import { AuditLog, Logger, type LogFields } from "@keyward/core/ports";
import { type IncomingHttpHeaders, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { json, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

/** Keeps every log entry as the one JSON line the default logger would write. */
class LineLogger implements Logger {
  readonly lines: { message: string; fields: LogFields; line: string }[] = [];
  info(message: string, fields: LogFields = {}): void {
    this.lines.push({ message, fields, line: JSON.stringify({ message, ...fields }) });
  }
  warn(message: string, fields: LogFields = {}): void {
    this.info(message, fields);
  }
  error(message: string, fields: LogFields = {}): void {
    this.info(message, fields);
  }
}

const JSON_ACCEPT = { accept: "application/json" } as const;
const JSON_ACCEPT_INIT = { headers: JSON_ACCEPT };

/** A GET through node:http, which sends the path exactly as given. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const { hostname, port, pathname } = new URL(url.replace("%2e%2e", "dots"));
    const path = pathname.replace("dots", "%2e%2e");
    const req = request({ hostname, port, path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Signs in through the demo's form (`/login`): the page's CSRF token, then the form post. */
async function signInWithPassword(b: Browser, username: string, password: string): Promise<void> {
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm("/login", { username, password, _csrf: csrf });
  expect(res.status).toBe(302);
}

const logger = new LineLogger();
const capture: PlatformPlugin = {
  id: "test-log",
  register: (ctx) => ctx.override(Logger, { useValue: logger }),
};
const access = () => logger.lines.filter((l) => l.message === ACCESS_LOG_MESSAGE);
const lastAccess = () => access().at(-1)?.fields;

function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("what operators watch, on the demo (admin audience for the metrics)", () => {
  let demo: RunningDemo;

  beforeAll(async () => {
    demo = await startDemo(
      {},
      // The access log as in production (the test stacks turn it off unless asked).
      {
        ...NO_MFA_FOR_ADMINS,
        "platform.http.metrics.audience": "admin",
        "platform.http.access-log.enabled": true,
      },
      { plugins: [capture] },
    );
  });
  afterAll(() => demo.close());

  it("logs a firewall refusal (400) with its correlation id, and echoes the id", async () => {
    // node:http sends the path as given (fetch would resolve the dot segment first).
    const res = await rawGet(`${demo.base}/a/%2e%2e/admin`, { "x-request-id": "probe-1", ...JSON_ACCEPT });
    expect(res.status).toBe(400);
    expect(res.headers["x-request-id"]).toBe("probe-1");
    expect(lastAccess()).toMatchObject({ status: 400, correlationId: "probe-1", method: "GET" });
  });

  it("logs a bearer request with the route name and the user id, never the token", async () => {
    const login = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "user", password: "password" }),
    );
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const me = await fetch(`${demo.base}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
    const line = lastAccess();
    expect(line).toMatchObject({ method: "GET", path: "/api/me", status: 200 });
    expect(typeof line?.route).toBe("string");
    expect(typeof line?.userId).toBe("string");
    expect(logger.lines.some((l) => l.line.includes(accessToken))).toBe(false);
    const forged = await fetch(`${demo.base}/api/me`, {
      headers: { authorization: "Bearer forged.token.value" },
    });
    expect(forged.status).toBe(401);
    expect(lastAccess()).toMatchObject({ path: "/api/me", status: 401, userId: undefined });
    // Refused before the chain's entry step looked it up: named as the answered request was.
    expect(lastAccess()?.route).toBe(line?.route);
    expect(logger.lines.some((l) => l.line.includes("forged.token.value"))).toBe(false);
  });

  it("names an application route by the handler's lookup, and a request refused before the handler alike", async () => {
    const login = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "user", password: "password" }),
    );
    const { accessToken } = (await login.json()) as { accessToken: string };
    const orders = await fetch(`${demo.base}/api/orders`, {
      headers: { authorization: `Bearer ${accessToken}`, ...JSON_ACCEPT },
    });
    expect(orders.status).toBe(200);
    expect(lastAccess()).toMatchObject({ path: "/api/orders", route: "orders.list", status: 200 });
    const anonymous = await fetch(`${demo.base}/api/orders`, { headers: JSON_ACCEPT });
    expect(anonymous.status).toBe(401);
    expect(lastAccess()).toMatchObject({ path: "/api/orders", route: "orders.list", status: 401 });
    const unknown = await fetch(`${demo.base}/api/orders/none/such`, {
      headers: { authorization: `Bearer ${accessToken}`, ...JSON_ACCEPT },
    });
    expect(lastAccess()).toMatchObject({ status: unknown.status, route: undefined });
  });

  // Outside review: a route a core module put straight into the table (JWKS, the RFC 8414 metadata)
  // was logged and counted as `app.GET <path>`, not by the table's name.
  it("names a core route added to the table by its own name in the access line", async () => {
    for (const [path, name] of [
      ["/.well-known/jwks.json", "identity.jwks"],
      ["/.well-known/oauth-authorization-server", "identity.oauth-metadata"],
    ]) {
      const res = await fetch(`${demo.base}${path}`);
      expect(res.status).toBe(200);
      expect(lastAccess()).toMatchObject({ path, route: name, status: 200 });
    }
  });

  it("metrics: 401 anonymous, 403 for a user, 200 for an administrator, with sign-ins and policy decisions", async () => {
    // A browser without a session is sent to the sign-in page; a JSON client gets the 401.
    const anonymous = await fetch(`${demo.base}/metrics`, { headers: JSON_ACCEPT });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe("AUTHENTICATION_REQUIRED");

    const user = new Browser(demo.base);
    await signInWithPassword(user, "user", "password");
    const refused = await user.fetch("/metrics", { headers: JSON_ACCEPT });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("ACCESS_DENIED");

    const failed = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "user", password: "wrong" }),
    );
    expect(failed.status).toBe(401);
    const admin = new Browser(demo.base);
    await signInWithPassword(admin, "admin", "admin");
    const res = await admin.fetch("/metrics");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'keyward_sign_ins_total{method="form",outcome="success"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'keyward_sign_ins_total{method="rest",outcome="failure"}')).toBe(1);
    expect(sample(text, 'keyward_policy_decisions_total{outcome="granted"}')).toBeGreaterThan(0);
    // The firewall's refusal is counted under the route its canonical path names (bounded names only).
    const refusals = text
      .split("\n")
      .filter((l) => l.startsWith("keyward_http_requests_total{") && l.includes('status="400"'));
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("%2e");
  });

  it("a policy denial's audit event carries the request's id, as its answer and access line do", async () => {
    const user = new Browser(demo.base);
    await signInWithPassword(user, "user", "password");
    const res = await user.fetch("/admin", {
      headers: { ...JSON_ACCEPT, "x-correlation-id": "trace-denied-1" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-request-id")).toBe("trace-denied-1");
    const denied = await demo.platform.resolve(AuditLog).query({ type: "authz.denied" });
    expect(denied.at(-1)).toMatchObject({ principal: "user", correlationId: "trace-denied-1" });
    expect(lastAccess()).toMatchObject({ status: 403, correlationId: "trace-denied-1" });
  });

  it("carries the caller's correlation id into one-time-token audit events", async () => {
    const audited = async (type: string, id: string) =>
      (await demo.platform.resolve(AuditLog).query({ type, limit: 100 })).some((e) => e.correlationId === id);
    const b = new Browser(demo.base);
    const csrf = await b.csrfFrom("/login/ott");
    const asked = await b.postForm(
      "/ott/generate",
      { username: "user", _csrf: csrf },
      { "x-request-id": "ott-gen-4" },
    );
    expect(asked.status).toBeLessThan(400);
    expect(await audited("auth.ott.generated", "ott-gen-4")).toBe(true);
    await b.postForm("/login/ott", { token: "not-a-token", _csrf: csrf }, { "x-request-id": "ott-bad-5" });
    expect(await audited("auth.login.failure", "ott-bad-5")).toBe(true);
  });

  it("carries the caller's correlation id into the password sign-in's audit events", async () => {
    for (const [password, id, type] of [
      ["password", "signin-ok-7", "auth.login.success"],
      ["wrong", "signin-bad-8", "auth.login.failure"],
    ] as const) {
      await fetch(
        `${demo.base}/api/login`,
        json("POST", { username: "user", password }, { "x-request-id": id }),
      );
      const events = await demo.platform.resolve(AuditLog).query({ type, limit: 100 });
      expect(
        events.some((e) => e.correlationId === id),
        `${type} ${id}`,
      ).toBe(true);
    }
  });
});

describe("the bearer metrics audience on the demo, whose catch-all chain reads bearer access tokens", () => {
  const token = `${"m".repeat(24)}-metrics-token-42`;
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo(
      {},
      {
        ...NO_MFA_FOR_ADMINS,
        "platform.http.metrics.audience": "bearer",
        "platform.http.metrics.bearer-token": token,
      },
    );
  });
  afterAll(() => demo.close());

  it("answers the shared token with the metrics; a wrong or missing token is refused; the token opens nothing else", async () => {
    const ok = await fetch(`${demo.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain");
    expect(await ok.text()).toContain("keyward_");
    const wrong = await fetch(`${demo.base}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${demo.base}/metrics`, JSON_ACCEPT_INIT)).status).toBe(401);
    // The shared token is no access token: every other path refuses it as the chain always did.
    const elsewhere = await fetch(`${demo.base}/api/me`, {
      headers: { authorization: `Bearer ${token}`, ...JSON_ACCEPT },
    });
    expect(elsewhere.status).toBe(401);
    const post = await fetch(`${demo.base}/metrics`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(post.status).not.toBe(200);
  });
});
