import type { Platform } from "@keyward/core";
import { ManagedResourceRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The Policy Center's authoring routes on the demo's real chain (session, CSRF, exception translation,
// the database policy 'Admin area' for /admin/**), mounted by policyCenterPlugin with the admin API.
let demo: RunningDemo;
let base = "";
let platform: Platform;

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  ({ base, platform } = demo);
});
afterAll(() => demo.close());

async function signedIn(username: string, password: string): Promise<Browser> {
  const b = new Browser(base);
  const res = await b.postForm("/login", { username, password, _csrf: await b.csrfFrom("/login") });
  expect(res.status).toBe(302);
  return b;
}

async function definedOrdersList(): Promise<string> {
  const repository = platform.resolve(ManagedResourceRepository);
  const found = await repository.findByKey({
    resourceType: "URL",
    resourceIdentifier: "/api/orders",
    httpMethod: "GET",
  });
  if (!found) throw new Error("GET /api/orders is not a managed resource");
  if (found.status === "NEEDS_DEFINITION") {
    await repository.update(found.id, found.version, {
      status: "PERMISSION_CREATED",
      permission: {
        id: "perm-orders-list",
        name: "List orders",
        description: "",
        createdAt: 0,
        createdBy: "test",
      },
    });
  }
  return found.id;
}

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";

describe("Policy Center authoring on the demo's chain", () => {
  it("sends anonymous browsers to sign in, refuses users, and refuses a form post without the CSRF token", async () => {
    const anonymous = new Browser(base);
    const page = await anonymous.navigate("/admin/policy-builder/from-resource");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/\/login$/);
    expect((await anonymous.postForm("/admin/policy-center/create-policy", { name: "x" })).status).toBe(403);

    const user = await signedIn("user", "password");
    expect((await user.navigate("/admin/policy-builder/from-resource")).status).toBe(403);

    const admin = await signedIn("admin", "admin");
    const refused = await admin.postForm("/admin/policy-center/create-policy", {
      action: "save",
      name: "No token",
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/CSRF/);
  });

  it("an administrator opens the builder for a resource, previews, saves (303), and the policy is enforced", async () => {
    const id = await definedOrdersList();
    const admin = await signedIn("admin", "admin");
    const page = await admin.navigate(`/admin/policy-builder/from-resource?resourceId=${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="target.0.identifier" value="/api/orders"');
    const csrf = hidden(html, "_csrf");
    expect(csrf).not.toBe("");
    const form = {
      _csrf: csrf,
      resourceId: id,
      name: "Orders list: no plain users",
      effect: "DENY",
      priority: "-10",
      "target.0.type": "URL",
      "target.0.identifier": "/api/orders",
      "target.0.method": "GET",
      "target.0.source": "RESOURCE",
      "rule.0.name": "users",
      "rule.0.condition.0": "hasRole('USER') and !hasRole('ADMIN')",
      "sample.roles": "USER",
    };
    const preview = await admin.postForm("/admin/policy-center/create-policy", {
      ...form,
      action: "preview",
    });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toMatch(/<strong>denied<\/strong> by this policy/);

    const user = await bearerHeaders(base, "user", "password");
    expect((await fetch(`${base}/api/orders`, { headers: user })).status).toBe(200);
    const saved = await admin.postForm("/admin/policy-center/create-policy", { ...form, action: "save" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toMatch(/^\/admin\/policy-center\?tab=policies&notice=saved$/);
    expect((await platform.resolve(ManagedResourceRepository).findById(id))?.status).toBe("POLICY_CONNECTED");
    expect((await fetch(`${base}/api/orders`, { headers: user })).status).toBe(403);
  });

  it("quick create by JSON needs the CSRF header on a session and answers 201", async () => {
    const id = await definedOrdersList();
    const admin = await signedIn("admin", "admin");
    const csrf = hidden(await (await admin.navigate("/admin/policy-builder/from-resource")).text(), "_csrf");
    const body = JSON.stringify({ resourceId: id, roles: ["AUDITOR"] });
    const headers = { "content-type": "application/json", accept: "application/json" };
    const without = await admin.fetch("/admin/policy-center/api/quick-create", {
      method: "POST",
      headers,
      body,
    });
    expect(without.status).toBe(403);
    const granted = await admin.fetch("/admin/policy-center/api/quick-create", {
      method: "POST",
      headers: { ...headers, "x-csrf-token": csrf },
      body,
    });
    expect(granted.status).toBe(201);
    expect(await granted.json()).toMatchObject({ resource: { id, status: "POLICY_CONNECTED" } });
  });
});
