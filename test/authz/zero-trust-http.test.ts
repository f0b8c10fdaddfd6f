import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import type { Platform } from "@keyward/core";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

interface Demo {
  base: string;
  platform: Platform;
  close: () => Promise<void>;
}

// admin signs in without an emailed code here; the MFA tests cover that path.
async function startDemo(properties: Record<string, unknown> = {}): Promise<Demo> {
  const demo = await buildDemoPlatform(
    {
      properties: {
        ...LOW_COST_SCRYPT,
        "platform.auth.mfa.requiredAuthorities": "",
        // The AI decisions are test/decisions' subject; here they would decide users at times no test fixes.
        "platform.security.decision.enabled": false,
        ...properties,
      },
    },
    {},
  );
  const platform = demo.platform;
  await platform.resolve(UserRepository).create({
    username: "carol",
    passwordHash: await platform.resolve(PasswordHasher).hash("carol-pass"),
    authorities: ["ROLE_USER"],
  });
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  return {
    base: `http://127.0.0.1:${server.port}`,
    platform,
    close: async () => {
      await server.close(true);
      await platform.stop();
    },
  };
}

async function bearer(base: string, username: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { accessToken: string };
  return { authorization: `Bearer ${body.accessToken}`, accept: "application/json" };
}

async function sessionOf(base: string, username: string, password: string) {
  const b = new Browser(base);
  const csrf = await b.csrfFrom("/login");
  expect((await b.postForm("/login", { username, password, _csrf: csrf })).status).toBe(302);
  return { b, csrf: await b.csrfFrom("/") };
}

async function userIdOf(platform: Platform, username: string): Promise<string> {
  const found = await platform.resolve(UserRepository).findByUsername(username);
  if (!found) throw new Error(`no user ${username}`);
  return found.id;
}

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

describe("zero-trust actions set through the admin API decide the user's next request", () => {
  async function putAction(subject: string, action: string) {
    const { b, csrf } = await sessionOf(demo.base, "admin", "admin");
    const res = await b.fetch(`/admin/api/zerotrust/actions/${subject}`, {
      method: "PUT",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ action, reason: "http test" }),
    });
    expect(res.status).toBe(200);
    return { b, csrf };
  }

  it("CHALLENGE answers 401 MFA_CHALLENGE_REQUIRED with the step-up WWW-Authenticate; DELETE lifts it", async () => {
    const carol = await bearer(demo.base, "carol", "carol-pass");
    expect((await fetch(`${demo.base}/api/orders`, { headers: carol })).status).toBe(200);
    const subject = `user:${await userIdOf(demo.platform, "carol")}`;
    const { b, csrf } = await putAction(subject, "CHALLENGE");

    const challenged = await fetch(`${demo.base}/api/orders`, { headers: carol });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_user_authentication"',
    );
    expect(await challenged.json()).toMatchObject({ code: "MFA_CHALLENGE_REQUIRED" });

    const cleared = await b.fetch(`/admin/api/zerotrust/actions/${subject}`, {
      method: "DELETE",
      headers: { accept: "application/json", "x-csrf-token": csrf },
    });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ subject, cleared: true });
    expect((await fetch(`${demo.base}/api/orders`, { headers: carol })).status).toBe(200);
  });

  it("ESCALATE answers 423 ZERO_TRUST_REVIEW_REQUIRED, only to that user", async () => {
    const carol = await bearer(demo.base, "carol", "carol-pass");
    const user = await bearer(demo.base, "user", "password");
    const subject = `user:${await userIdOf(demo.platform, "carol")}`;
    const { b, csrf } = await putAction(subject, "ESCALATE");
    const held = await fetch(`${demo.base}/api/orders`, { headers: carol });
    expect(held.status).toBe(423);
    expect(await held.json()).toMatchObject({ code: "ZERO_TRUST_REVIEW_REQUIRED" });
    expect((await fetch(`${demo.base}/api/orders`, { headers: user })).status).toBe(200);
    await b.fetch(`/admin/api/zerotrust/actions/${subject}`, {
      method: "DELETE",
      headers: { "x-csrf-token": csrf },
    });
    expect((await fetch(`${demo.base}/api/orders`, { headers: carol })).status).toBe(200);
  });

  it("refuses the zero-trust admin API to a non-admin (403) and changes nothing", async () => {
    const { b, csrf } = await sessionOf(demo.base, "user", "password");
    const subject = `user:${await userIdOf(demo.platform, "user")}`;
    const put = await b.fetch(`/admin/api/zerotrust/actions/${subject}`, {
      method: "PUT",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ action: "ALLOW" }),
    });
    expect(put.status).toBe(403);
    expect(await put.json()).toMatchObject({ code: "ACCESS_DENIED" });
    const list = await b.fetch("/admin/api/zerotrust/actions", { headers: { accept: "application/json" } });
    expect(list.status).toBe(403);
    const { b: admin } = await sessionOf(demo.base, "admin", "admin");
    const read = await admin.fetch(`/admin/api/zerotrust/actions/${subject}`, {
      headers: { accept: "application/json" },
    });
    expect(read.status).toBe(404);
  });
});

describe("security.zerotrust.pending-analysis=DENY", () => {
  it("answers a user with no record 503 ZERO_TRUST_PENDING_ANALYSIS as JSON, not INTERNAL_ERROR", async () => {
    const strict = await startDemo({ "security.zerotrust.pending-analysis": "DENY" });
    try {
      const user = await bearer(strict.base, "user", "password");
      const res = await fetch(`${strict.base}/api/orders`, { headers: user });
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ code: "ZERO_TRUST_PENDING_ANALYSIS" });
      expect((await fetch(`${strict.base}/api/orders`)).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe("hostile bodies to the policy admin API", () => {
  const big = "a".repeat(5_000);
  const policy = {
    name: "Hostile",
    description: "x",
    effect: "ALLOW",
    priority: 5,
    targets: [{ targetType: "URL", targetIdentifier: "/api/hostile/**" }],
    rules: [{ name: "r", conditions: [{ expression: "permitAll" }] }],
  };
  const cases: Array<{
    name: string;
    status: number;
    code: string;
    path: string;
    type?: string;
    body: string;
  }> = [
    {
      name: "wrong content type",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      path: "/admin/api/policies",
      type: "text/plain",
      body: JSON.stringify(policy),
    },
    {
      name: "form content type",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      path: "/admin/api/policies",
      type: "application/x-www-form-urlencoded",
      body: "name=x",
    },
    {
      name: "broken JSON",
      status: 400,
      code: "MALFORMED_JSON",
      path: "/admin/api/policies",
      body: '{"name": "x",',
    },
    { name: "a JSON array", status: 400, code: "MALFORMED_BODY", path: "/admin/api/policies", body: "[1,2]" },
    {
      name: "2 MB body",
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      path: "/admin/api/policies",
      body: JSON.stringify({ ...policy, description: "x".repeat(2_000_000) }),
    },
    {
      name: "__proto__ key",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies",
      body: `{"__proto__": {"isActive": false}, ${JSON.stringify(policy).slice(1)}`,
    },
    {
      name: "constructor key",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies",
      body: JSON.stringify({ ...policy, constructor: { prototype: { x: 1 } } }),
    },
    {
      name: "unknown field",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies",
      body: JSON.stringify({ ...policy, owner: "mallory" }),
    },
    {
      name: "5,000-char target",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies",
      body: JSON.stringify({ ...policy, targets: [{ targetType: "URL", targetIdentifier: `/${big}` }] }),
    },
    {
      name: "a non-path target",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies",
      body: JSON.stringify({
        ...policy,
        targets: [{ targetType: "URL", targetIdentifier: "http://evil.example/" }],
      }),
    },
    {
      name: "simulate: wrong content type",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      path: "/admin/api/policies/simulate",
      type: "text/plain",
      body: "{}",
    },
    {
      name: "simulate: broken JSON",
      status: 400,
      code: "MALFORMED_JSON",
      path: "/admin/api/policies/simulate",
      body: "{",
    },
    {
      name: "simulate: 2 MB body",
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      path: "/admin/api/policies/simulate",
      body: JSON.stringify({ username: "user", method: "GET", path: `/${"b".repeat(2_000_000)}` }),
    },
    {
      name: "simulate: __proto__ key",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies/simulate",
      body: '{"__proto__": {"roles": ["ADMIN"]}, "username": "user", "method": "GET", "path": "/"}',
    },
    {
      name: "simulate: unknown field",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies/simulate",
      body: JSON.stringify({ anonymous: true, method: "GET", path: "/", extra: 1 }),
    },
    {
      name: "simulate: 5,000-char path",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies/simulate",
      body: JSON.stringify({ anonymous: true, method: "GET", path: `/${big}` }),
    },
    {
      name: "simulate: a non-path",
      status: 400,
      code: "VALIDATION_FAILED",
      path: "/admin/api/policies/simulate",
      body: JSON.stringify({ anonymous: true, method: "GET", path: "api/orders?x=1" }),
    },
  ];

  it.each(cases)(
    "$name answers $status $code as JSON and changes nothing",
    async ({ path, type, body, status, code }) => {
      const { b, csrf } = await sessionOf(demo.base, "admin", "admin");
      const list = async () => {
        const res = await b.fetch("/admin/api/policies", { headers: { accept: "application/json" } });
        expect(res.status).toBe(200);
        return res.json();
      };
      const before = await list();
      const res = await b.fetch(path, {
        method: "POST",
        headers: {
          "content-type": type ?? "application/json",
          accept: "application/json",
          "x-csrf-token": csrf,
        },
        body,
      });
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ code });
      expect(await list()).toEqual(before);
    },
  );

  it("refuses a 5,000-character URL path before any chain (400 REQUEST_REJECTED), a long id with VALIDATION_FAILED", async () => {
    const { b, csrf } = await sessionOf(demo.base, "admin", "admin");
    const json = { accept: "application/json", "x-csrf-token": csrf };
    const huge = await b.fetch(`/admin/api/policies/${big}`, { method: "DELETE", headers: json });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ code: "REQUEST_REJECTED" });
    const long = await b.fetch(`/admin/api/policies/${"c".repeat(129)}`, { method: "DELETE", headers: json });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
