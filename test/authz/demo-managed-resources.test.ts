import type { Platform } from "@keyward/core";
import { ManagedResourceRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The README's "Managed resources" walk-through, on the demo over HTTP: an administrator defines the
// `POST /api/orders` resource and connects it with a policy through the policy API.
let demo: RunningDemo;
let base = "";
let platform: Platform;

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  ({ base, platform } = demo);
});
afterAll(() => demo.close());

// The demo's route scanner entered it on start.
async function placeOrdersResource(): Promise<{ id: string }> {
  const key = { resourceType: "URL", resourceIdentifier: "/api/orders", httpMethod: "POST" } as const;
  const found = await platform.resolve(ManagedResourceRepository).findByKey(key);
  if (!found) throw new Error("POST /api/orders is not a managed resource");
  return found;
}

describe("managed resources on the demo", () => {
  it("holds the demo's routes and OrderService's protected method from the first start, not the platform's own", async () => {
    const all = await platform.resolve(ManagedResourceRepository).findAll();
    const keys = all.map((r) => `${r.resourceType} ${r.httpMethod ?? "-"} ${r.resourceIdentifier}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "URL GET /api/orders",
        "URL POST /api/orders",
        "URL GET /api/orders/{id}",
        "URL DELETE /api/orders/{id}",
        "METHOD - OrderService.get(string)",
      ]),
    );
    // The platform's own endpoints (sign-in, the admin APIs) are not managed; the demo's /admin/api/audit is its own route.
    expect(keys.filter((k) => /\/api\/login|\/admin\/api\/(resources|policies|users)/.test(k))).toEqual([]);
    expect(all.every((r) => r.status === "NEEDS_DEFINITION" && r.missingSince === undefined)).toBe(true);
  });

  it("an administrator defines a resource and connects it with a policy (the README's curl steps)", async () => {
    const { id } = await placeOrdersResource();
    const admin = await bearerHeaders(base, "admin", "admin");
    const listed = await fetch(`${base}/admin/api/resources?q=api/orders&status=NEEDS_DEFINITION`, {
      headers: admin,
    });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: { id: string }[] }).items.map((r) => r.id)).toContain(id);

    const defined = await fetch(`${base}/admin/api/resources/${id}/define`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ friendlyName: "Place an order" }),
    });
    expect(await defined.json()).toMatchObject({
      status: "PERMISSION_CREATED",
      permission: { name: "Place an order" },
      impact: [{ name: "Orders: signed-in users", relation: "broader" }],
    });

    const policy = await fetch(`${base}/admin/api/policies`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({
        name: "Orders: place",
        description: "Signed-in users who are not blocked place orders",
        effect: "ALLOW",
        priority: 5,
        targets: [
          { targetType: "URL", targetIdentifier: "/api/orders", httpMethod: "POST", sourceType: "RESOURCE" },
        ],
        rules: [
          { name: "users", conditions: [{ expression: "hasAnyRole('USER', 'ADMIN') and !#ai.isBlocked()" }] },
        ],
      }),
    });
    expect(policy.status).toBe(201);
    const shown = (await (await fetch(`${base}/admin/api/resources/${id}`, { headers: admin })).json()) as {
      status: string;
      connectedPolicies: { name: string }[];
    };
    expect(shown.status).toBe("POLICY_CONNECTED");
    expect(shown.connectedPolicies.map((p) => p.name)).toEqual(["Orders: place"]);
    // The connecting policy is enforced: the reload ran.
    const user = await bearerHeaders(base, "user", "password");
    expect(
      (await fetch(`${base}/api/orders`, { method: "POST", headers: user, body: '{"item":"tea"}' })).status,
    ).toBe(201);
  });

  it("session callers need the CSRF token; a non-admin is refused whatever the resource", async () => {
    const { id } = await placeOrdersResource();
    const b = new Browser(base);
    const login = await b.postForm("/login", {
      username: "admin",
      password: "admin",
      _csrf: await b.csrfFrom("/login"),
    });
    expect(login.status).toBe(302);
    const csrf = await b.csrfFrom("/");
    const headers = { "content-type": "application/json", accept: "application/json" };
    const without = await b.fetch(`/admin/api/resources/${id}/exclude`, {
      method: "POST",
      headers,
      body: "{}",
    });
    expect(without.status).toBe(403);
    expect(((await without.json()) as { code: string }).code).toMatch(/CSRF/);
    const read = await b.fetch(`/admin/api/resources/${id}`, { headers });
    expect(read.status).toBe(200);
    const before = ((await read.json()) as { status: string }).status;
    const withToken = await b.fetch(`/admin/api/resources/${id}/exclude`, {
      method: "POST",
      headers: { ...headers, "x-csrf-token": csrf },
      body: "{}",
    });
    // Defined by the first test (or not, when run alone): either way the answer is the table's.
    expect(withToken.status).toBe(before === "NEEDS_DEFINITION" ? 200 : 409);

    const user = await bearerHeaders(base, "user", "password");
    const refused = await fetch(`${base}/admin/api/resources`, { headers: user });
    expect(refused.status).toBe(403);
  });
});
