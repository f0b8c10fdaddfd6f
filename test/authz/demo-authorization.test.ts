import type { Platform } from "@keyward/core";
import { UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import {
  bearerHeaders,
  NO_MFA_FOR_ADMINS,
  type RunningDemo,
  seedUser,
  startDemo,
} from "../support/demo-server.js";

let demo: RunningDemo;
let base = "";
let platform: Platform;

beforeAll(async () => {
  // admin signs in without an emailed code here; the MFA tests cover that path.
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  ({ base, platform } = demo);
  await seedUser(platform, "carol", "carol-pass");
});
afterAll(() => demo.close());

const bearer = (username: string, password: string) => bearerHeaders(base, username, password);

async function sessionOf(username: string, password: string): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser(base);
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm("/login", { username, password, _csrf: csrf });
  expect(res.status).toBe(302);
  return { b, csrf: await b.csrfFrom("/") };
}

describe("the demo's database policies (dynamic authorization)", () => {
  it("orders: signed-in users list and place; anonymous callers are asked to sign in", async () => {
    const user = await bearer("user", "password");
    expect((await fetch(`${base}/api/orders`)).status).toBe(401);
    const placed = await fetch(`${base}/api/orders`, {
      method: "POST",
      headers: user,
      body: JSON.stringify({ item: "tea" }),
    });
    expect(placed.status).toBe(201);
    expect((await fetch(`${base}/api/orders`, { headers: user })).status).toBe(200);
  });

  it("DELETE needs ADMIN (policy 'Orders: cancel'): a user gets 403 and the denial is in the audit trail", async () => {
    const user = await bearer("user", "password");
    const admin = await bearer("admin", "admin");
    const placed = (await (
      await fetch(`${base}/api/orders`, {
        method: "POST",
        headers: user,
        body: JSON.stringify({ item: "cake" }),
      })
    ).json()) as { id: string };
    const refused = await fetch(`${base}/api/orders/${placed.id}`, { method: "DELETE", headers: user });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "ACCESS_DENIED", message: "Access denied" });
    expect(
      (await fetch(`${base}/api/orders/${placed.id}`, { method: "DELETE", headers: admin })).status,
    ).toBe(200);

    const { b } = await sessionOf("admin", "admin");
    await new Promise((r) => setImmediate(r)); // audit events are delivered off the request path
    const audit = (await (await b.fetch("/admin/api/audit?type=authz.denied")).json()) as Array<{
      principal: string;
      data: Record<string, unknown>;
    }>;
    expect(
      audit.some(
        (e) => e.principal === "user" && e.data.policyName === "Orders: cancel" && e.data.action === "DELETE",
      ),
    ).toBe(true);
  });

  it("GET /api/orders/{id} is method-protected: owner and admin read, another user is refused", async () => {
    const user = await bearer("user", "password");
    const carol = await bearer("carol", "carol-pass");
    const admin = await bearer("admin", "admin");
    const placed = (await (
      await fetch(`${base}/api/orders`, {
        method: "POST",
        headers: user,
        body: JSON.stringify({ item: "jam" }),
      })
    ).json()) as { id: string };
    expect((await fetch(`${base}/api/orders/${placed.id}`, { headers: user })).status).toBe(200);
    expect((await fetch(`${base}/api/orders/${placed.id}`, { headers: admin })).status).toBe(200);
    const other = await fetch(`${base}/api/orders/${placed.id}`, { headers: carol });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("/admin: a user gets 403, an admin the page", async () => {
    const { b: user } = await sessionOf("user", "password");
    expect((await user.fetch("/admin", { headers: { accept: "application/json" } })).status).toBe(403);
    const { b: admin } = await sessionOf("admin", "admin");
    expect((await admin.fetch("/admin")).status).toBe(200);
    expect((await user.fetch("/admin/api/policies")).status).toBe(403);
  });

  it("a statically matched URL never reaches the dynamic manager: its policy is ignored and it is not in the policy audit trail", async () => {
    const { b: admin, csrf } = await sessionOf("admin", "admin");
    // A database policy for a URL the chain decides statically (`/admin/api/**` hasRole ADMIN).
    const created = await admin.postJson(
      "/admin/api/policies",
      {
        name: "Ignored: admin API for users",
        description: "never consulted",
        effect: "ALLOW",
        priority: 0,
        targets: [{ targetType: "URL", targetIdentifier: "/admin/api/policies", httpMethod: "GET" }],
        rules: [{ name: "users", conditions: [{ expression: "hasRole('USER')" }] }],
      },
      { "x-csrf-token": csrf },
    );
    expect(created.status).toBe(201);
    const { b: user } = await sessionOf("user", "password");
    expect(
      (await user.fetch("/admin/api/policies", { headers: { accept: "application/json" } })).status,
    ).toBe(403);
    await new Promise((r) => setImmediate(r));
    const events = (await (await admin.fetch("/admin/api/audit")).json()) as Array<{
      type: string;
      principal?: string;
      data: Record<string, unknown>;
    }>;
    const mine = events.filter(
      (e) => e.principal === "user" && (e.data.uri ?? e.data.path) === "/admin/api/policies",
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((e) => e.type))).toEqual(new Set(["http.access.denied"]));
    const { id } = (await created.json()) as { id: string };
    await admin.fetch(`/admin/api/policies/${id}`, { method: "DELETE", headers: { "x-csrf-token": csrf } });
  });

  it("the simulator explains a decision with its trail", async () => {
    const { b, csrf } = await sessionOf("admin", "admin");
    const res = await b.postJson(
      "/admin/api/policies/simulate",
      { username: "user", method: "DELETE", path: "/api/orders/7" },
      { "x-csrf-token": csrf },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      decision: Record<string, unknown>;
      trail: Array<{ name: string; outcome: string }>;
    };
    expect(body.decision).toMatchObject({ granted: false, policyName: "Orders: cancel" });
    expect(body.trail.map((t) => [t.name, t.outcome])).toEqual([
      ["Orders: cancel", "decided"],
      ["Orders: signed-in users", "not-reached"],
    ]);
    const noCsrf = await b.postJson("/admin/api/policies/simulate", {
      username: "user",
      method: "GET",
      path: "/",
    });
    expect(noCsrf.status).toBe(403);
  });

  it("a policy created through the admin API applies at once (reload); zero-trust BLOCK answers 403 ZERO_TRUST_BLOCKED", async () => {
    const { b, csrf } = await sessionOf("admin", "admin");
    const created = await b.postJson(
      "/admin/api/policies",
      {
        name: "Orders: no carol",
        description: "demo",
        effect: "DENY",
        priority: 1,
        targets: [{ targetType: "URL", targetIdentifier: "/api/orders", httpMethod: "GET" }],
        rules: [
          { name: "carol", conditions: [{ expression: "hasAuthority('ROLE_USER') and !hasRole('ADMIN')" }] },
        ],
      },
      { "x-csrf-token": csrf },
    );
    expect(created.status).toBe(201);
    const carol = await bearer("carol", "carol-pass");
    expect((await fetch(`${base}/api/orders`, { headers: carol })).status).toBe(403);
    const { id } = (await created.json()) as { id: string };
    expect(
      (await b.fetch(`/admin/api/policies/${id}`, { method: "DELETE", headers: { "x-csrf-token": csrf } }))
        .status,
    ).toBe(204);
    expect((await fetch(`${base}/api/orders`, { headers: carol })).status).toBe(200);

    const carolUser = await platform.resolve(UserRepository).findByUsername("carol");
    const put = await b.fetch(`/admin/api/zerotrust/actions/user:${carolUser!.id}`, {
      method: "PUT",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ action: "BLOCK", reason: "demo" }),
    });
    expect(put.status).toBe(200);
    const blocked = await fetch(`${base}/api/orders`, { headers: carol });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
  });

  it("Policy Center store endpoints: the demo's static rules, a business rule saved with CSRF, its history", async () => {
    const { b, csrf } = await sessionOf("admin", "admin");
    const json = { headers: { accept: "application/json" } };
    const rules = (await (await b.fetch("/admin/api/policies/static-rules", json)).json()) as Array<{
      pattern: string | null;
      importable: boolean;
      rule: { kind: string; name?: string };
    }>;
    // The admin API's static rule is a role check under zero trust: listed, not importable.
    expect(rules.find((r) => r.pattern === "/admin/api/**")).toMatchObject({
      importable: false,
      rule: { kind: "custom", name: "zeroTrustChecked" },
    });
    expect(rules.filter((r) => r.rule.name === "recentFactor").length).toBeGreaterThan(0);

    const url = "/admin/api/policies/build-from-business-rule";
    const rule = {
      name: "Demo: reports on weekdays",
      urlPattern: "/reports/**",
      roles: ["ADMIN"],
      mode: "save",
    };
    const withWindow = { ...rule, timeWindows: [{ days: ["MONDAY", "FRIDAY"], from: "08:00", to: "18:00" }] };
    expect((await b.postJson(url, withWindow)).status).toBe(403);
    const saved = await b.postJson(url, withWindow, { "x-csrf-token": csrf });
    expect(saved.status).toBe(201);
    const { policy } = (await saved.json()) as { policy: { id: string; approvalStatus: string } };
    expect(policy.approvalStatus).toBe("NOT_REQUIRED");
    const history = await b.fetch(`/admin/api/policies/${policy.id}/history`, json);
    expect(
      ((await history.json()) as { action: string; actor: string }[]).map((r) => [r.action, r.actor]),
    ).toEqual([["CREATED", "admin"]]);
    const user = await bearer("user", "password");
    expect((await fetch(`${base}/admin/api/policies/${policy.id}/history`, { headers: user })).status).toBe(
      403,
    );
    await b.fetch(`/admin/api/policies/${policy.id}`, {
      method: "DELETE",
      headers: { "x-csrf-token": csrf },
    });
  });
});
