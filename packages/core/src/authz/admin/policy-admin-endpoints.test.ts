import { describe, expect, it } from "vitest";
import { declareChainRoutes } from "../../identity/chain/chain-route.js";
import { RouteTable } from "../../web/route-table.js";
import { generated, manual, ROOT, request, send, setup } from "../policy/policy.fixture.js";
import { PolicyAdminEndpoints } from "./policy-admin-endpoints.js";

const BASE = "/admin/api/policies";

describe("PolicyAdminEndpoints", () => {
  it("creates a policy: 201, Location, the stored policy, no-store", async () => {
    const { filter, repository } = setup();
    const { status, body, x } = await send(
      filter,
      request({ method: "POST", url: BASE, body: manual(), as: ROOT }),
    );
    expect(status).toBe(201);
    const stored = (await repository.findAll())[0]!;
    expect(body).toEqual({ ...stored });
    expect(x.response.headers.get("location")).toBe(`${BASE}/${stored.id}`);
    expect(x.response.headers.get("cache-control")).toBe("no-store");
  });

  it("lists policies in evaluation order and filters by query", async () => {
    const { filter, service } = setup();
    const admin = await service.create(manual({ priority: 10 }), ROOT);
    const ai = await service.create(generated({ priority: 9 }), ROOT);
    const off = await service.deactivate(
      (await service.create(manual({ name: "Reports", priority: 1 }), ROOT)).id,
      ROOT,
    );
    const ids = async (query: string) => {
      const { status, body } = await send(filter, request({ url: `${BASE}${query}`, as: ROOT }));
      expect(status).toBe(200);
      return (body as unknown as { id: string }[]).map((p) => p.id);
    };
    expect(await ids("")).toEqual([off.id, ai.id, admin.id]);
    expect(await ids("?source=AI_GENERATED")).toEqual([ai.id]);
    expect(await ids("?approvalStatus=NOT_REQUIRED")).toEqual([off.id, admin.id]);
    expect(await ids("?isActive=false")).toEqual([off.id]);
    expect(await ids("?isActive=true&targetType=URL")).toEqual([ai.id, admin.id]);
    expect(await ids("?targetType=METHOD")).toEqual([]);
    expect(await ids("?q=ORDERS")).toEqual([ai.id]);
    expect(await ids("?q=&unrelated=1")).toEqual([off.id, ai.id, admin.id]);
  });

  it("reads one policy", async () => {
    const { filter, service } = setup();
    const created = await service.create(manual(), ROOT);
    const { status, body } = await send(filter, request({ url: `${BASE}/${created.id}`, as: ROOT }));
    expect(status).toBe(200);
    expect(body).toEqual({ ...created });
  });

  it("updates by version and answers CONFLICT for a stale one", async () => {
    const { filter, service } = setup();
    const created = await service.create(manual(), ROOT);
    const put = (body: unknown) =>
      send(filter, request({ method: "PUT", url: `${BASE}/${created.id}`, body, as: ROOT }));
    const ok = await put({ version: 1, priority: 4, name: "Renamed" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ priority: 4, name: "Renamed", version: 2 });
    const stale = await put({ version: 1, priority: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "CONFLICT" });
    expect((await service.get(created.id, ROOT)).priority).toBe(4);
  });

  it("deletes with 204 and then answers 404", async () => {
    const { filter, service } = setup();
    const created = await service.create(manual(), ROOT);
    const first = await send(filter, request({ method: "DELETE", url: `${BASE}/${created.id}`, as: ROOT }));
    expect(first.status).toBe(204);
    expect(first.x.response.body).toBeUndefined();
    const second = await send(filter, request({ method: "DELETE", url: `${BASE}/${created.id}`, as: ROOT }));
    expect(second.status).toBe(404);
    expect(second.body).toMatchObject({ code: "NOT_FOUND" });
  });

  it("approves, rejects with a reason, deactivates and activates", async () => {
    const { filter, service, audited } = setup();
    const post = (id: string, action: string, body?: unknown) =>
      send(filter, request({ method: "POST", url: `${BASE}/${id}/${action}`, body, as: ROOT }));
    const a = await service.create(generated(), ROOT);
    expect((await post(a.id, "approve")).body).toMatchObject({ approvalStatus: "APPROVED" });
    expect((await post(a.id, "deactivate")).body).toMatchObject({ isActive: false });
    expect((await post(a.id, "activate")).body).toMatchObject({ isActive: true });
    const b = await service.create(generated(), ROOT);
    const rejected = await post(b.id, "reject", { reason: "too broad" });
    expect(rejected.body).toMatchObject({ approvalStatus: "REJECTED", isActive: false });
    expect(audited().at(-1)).toMatchObject({ type: "policy.rejected", data: { reason: "too broad" } });
    const c = await service.create(generated(), ROOT);
    expect((await post(c.id, "reject")).body).toMatchObject({ approvalStatus: "REJECTED" });
    const again = await post(c.id, "approve");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
  });

  it("answers POLICY_EXPRESSION_INVALID with where and why", async () => {
    const { filter, repository } = setup();
    const body = manual({ rules: [{ name: "r", conditions: [{ expression: "hasRole(" }] }] });
    const answer = await send(filter, request({ method: "POST", url: BASE, body, as: ROOT }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
      rule: "r",
      ruleIndex: 0,
      condition: 0,
      expression: "hasRole(",
      position: expect.any(Number),
    });
    expect(await repository.findAll()).toEqual([]);
  });

  it("leaves /simulate to the simulator's literal route", () => {
    const { filter } = setup();
    const table = new RouteTable();
    declareChainRoutes(table, "c", "mounted", filter.routes());
    declareChainRoutes(table, "c", "mounted", [
      { ...filter.routes()[0]!, method: "ANY", path: `${BASE}/simulate`, name: "authz.policies.simulate" },
    ]);
    for (const method of ["POST", "GET"]) {
      expect(table.matchChain("c", method, `${BASE}/simulate`)?.route.name).toBe("authz.policies.simulate");
    }
  });

  it("answers 404 for an action on `simulate`, which is no policy's id", async () => {
    const { filter } = setup();
    const { status, body } = await send(
      filter,
      request({ method: "POST", url: `${BASE}/simulate/approve`, as: ROOT }),
    );
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: "NOT_FOUND" });
  });

  it("passes other paths on without touching them", async () => {
    const { filter } = setup();
    for (const [method, url] of [
      ["POST", `${BASE}/x/y/approve`],
      ["POST", `${BASE}/x/publish`],
      // (`${BASE}/` is `${BASE}` itself: paths are canonical, trailing slash dropped)
      ["GET", `${BASE}s`],
      ["GET", "/admin/api/other"],
    ] as const) {
      const { nextCalls, x } = await send(filter, request({ method, url }));
      expect(nextCalls).toBe(1);
      expect(x.response.committed).toBe(false);
      expect(x.response.headers.has("cache-control")).toBe(false);
    }
  });

  it("honours a custom basePath", async () => {
    const { service } = setup();
    const filter = new PolicyAdminEndpoints({ service, basePath: "/ops/policies/" });
    const { status, body } = await send(filter, request({ url: "/ops/policies", as: ROOT }));
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });
});
