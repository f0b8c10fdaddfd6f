import { describe, expect, it } from "vitest";
import { ROOT, request, send } from "../authz/policy/policy.fixture.js";
import { resourcesSetup, targeting, urlResource } from "./resources.fixture.js";

const BASE = "/admin/api/resources";

async function seeded() {
  const s = resourcesSetup();
  const orders = await s.seed(urlResource("/api/orders", "GET", { friendlyName: "List orders" }));
  const cancel = await s.seed(urlResource("/api/orders/{id}", "DELETE", { friendlyName: "Cancel an order" }));
  const owner = await s.seed(
    urlResource("/api/customers", "GET", {
      serviceOwner: "customers",
      status: "EXCLUDED",
      description: "Customer list",
    }),
  );
  const method = await s.seed({
    ...urlResource("OrderService.get(string)", "GET", { serviceOwner: "OrderService" }),
    resourceType: "METHOD",
    httpMethod: undefined,
  } as never);
  const call = (method: string, url: string, body?: unknown) =>
    send(s.endpoints, request({ method, url, body, as: ROOT }));
  return { ...s, orders, cancel, owner, method, call };
}

describe("ResourceAdminEndpoints: list", () => {
  it("lists a page with the total, in key order, without caching", async () => {
    const { call } = await seeded();
    const answer = await call("GET", BASE);
    expect(answer.status).toBe(200);
    expect(answer.x.response.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toMatchObject({ total: 4, offset: 0, limit: 50 });
    expect((answer.body.items as { resourceIdentifier: string }[]).map((r) => r.resourceIdentifier)).toEqual([
      "OrderService.get(string)",
      "/api/customers",
      "/api/orders",
      "/api/orders/{id}",
    ]);
  });

  it.each([
    ["?status=EXCLUDED", ["/api/customers"]],
    ["?type=METHOD", ["OrderService.get(string)"]],
    ["?serviceOwner=customers", ["/api/customers"]],
    ["?q=CANCEL", ["/api/orders/{id}"]],
    ["?q=customer%20LIST", ["/api/customers"]],
    ["?q=orders&type=URL&status=NEEDS_DEFINITION", ["/api/orders", "/api/orders/{id}"]],
    ["?offset=1&limit=1", ["/api/customers"]],
    ["?limit=0", []],
    ["?q=", ["OrderService.get(string)", "/api/customers", "/api/orders", "/api/orders/{id}"]],
  ])("filters %s", async (query, expected) => {
    const { call } = await seeded();
    const answer = await call("GET", `${BASE}${query}`);
    expect(answer.status).toBe(200);
    expect((answer.body.items as { resourceIdentifier: string }[]).map((r) => r.resourceIdentifier)).toEqual(
      expected,
    );
  });
});

describe("ResourceAdminEndpoints: read and move", () => {
  it("reads one resource with its permission, connected policies and impact", async () => {
    const { call, orders, pap } = await seeded();
    await call("POST", `${BASE}/${orders.id}/define`, { friendlyName: "Read orders" });
    const policy = await pap.create(targeting("/api/orders", "GET"), ROOT);
    const broad = await pap.create(targeting("/api/**", "ANY"), ROOT);
    const answer = await call("GET", `${BASE}/${orders.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: orders.id,
      status: "POLICY_CONNECTED",
      permission: { name: "Read orders" },
      connectedPolicies: [{ policyId: policy.id, relation: "references" }],
      impact: [{ policyId: broad.id, relation: "broader" }],
    });
  });

  it("defines, excludes and restores through POST, with an optional version", async () => {
    const { call, orders, cancel } = await seeded();
    const defined = await call("POST", `${BASE}/${orders.id}/define`, {
      version: 1,
      description: "All orders",
    });
    expect(defined.status).toBe(200);
    expect(defined.body).toMatchObject({ status: "PERMISSION_CREATED", permission: { name: "List orders" } });
    expect((await call("POST", `${BASE}/${cancel.id}/exclude`)).body).toMatchObject({ status: "EXCLUDED" });
    expect((await call("POST", `${BASE}/${cancel.id}/restore`, { version: 2 })).body).toMatchObject({
      status: "NEEDS_DEFINITION",
      version: 3,
    });
  });

  it("answers 409 ILLEGAL_STATE_TRANSITION for a move not in the table and 409 CONFLICT for a stale version", async () => {
    const { call, owner, orders, status } = await seeded();
    const illegal = await call("POST", `${BASE}/${owner.id}/define`);
    expect(illegal.status).toBe(409);
    expect(illegal.body).toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
    const stale = await call("POST", `${BASE}/${orders.id}/exclude`, { version: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "CONFLICT" });
    expect([await status(owner.id), await status(orders.id)]).toEqual(["EXCLUDED", "NEEDS_DEFINITION"]);
  });

  it("answers 404 NOT_FOUND for an unknown id and 405 with Allow for a wrong method", async () => {
    const { call, orders } = await seeded();
    expect((await call("GET", `${BASE}/unknown-id`)).body).toMatchObject({ code: "NOT_FOUND" });
    expect((await call("POST", `${BASE}/unknown-id/define`)).status).toBe(404);
    const wrong = await call("DELETE", `${BASE}/${orders.id}`);
    expect(wrong.status).toBe(405);
    expect(wrong.x.response.headers.get("allow")).toBe("GET");
    const get = await call("GET", `${BASE}/${orders.id}/define`);
    expect(get.status).toBe(405);
    expect(get.x.response.headers.get("allow")).toBe("POST");
  });
});
