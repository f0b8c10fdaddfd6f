import { describe, expect, it } from "vitest";
import { caller, pdpWith, request, urlPolicy } from "./pdp.fixture.js";

const alice = caller("alice", "ROLE_USER");
const admin = caller("root", "ROLE_USER", "ROLE_ADMIN");

describe("DynamicAuthorizationManager: FIRST_APPLICABLE", () => {
  it("the first policy whose target matches decides; lower priority numbers first (10 before 9 is wrong)", async () => {
    const { manager } = await pdpWith([
      urlPolicy("p10", "ALLOW", 10, "/api/**", ["permitAll"]),
      urlPolicy("p9", "DENY", 9, "/api/**", []),
      urlPolicy("p100", "ALLOW", 100, "/api/**", ["permitAll"]),
    ]);
    const d = await manager.check(alice, request("GET", "/api/orders"));
    expect(d).toMatchObject({ granted: false, policyName: "p9", effect: "DENY" });
  });

  it("equal priorities keep creation order", async () => {
    const { manager } = await pdpWith([
      urlPolicy("first", "ALLOW", 5, "/x", ["hasRole('ADMIN')"]),
      urlPolicy("second", "ALLOW", 5, "/x", ["permitAll"]),
    ]);
    expect(await manager.check(alice, request("GET", "/x"))).toMatchObject({
      granted: false,
      policyName: "first",
    });
    expect(await manager.check(admin, request("GET", "/x"))).toMatchObject({
      granted: true,
      policyName: "first",
    });
  });

  it("a DENY decides as !(condition): false condition grants (FIRST_APPLICABLE)", async () => {
    const { manager } = await pdpWith([urlPolicy("no-admins", "DENY", 1, "/x", ["hasRole('ADMIN')"])]);
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(true);
    expect((await manager.check(admin, request("GET", "/x"))).granted).toBe(false);
  });

  it("matches methods: ANY for all, a method only itself", async () => {
    const { manager } = await pdpWith([
      urlPolicy("delete", "DENY", 1, "/orders/{id}", [], { method: "DELETE" }),
      urlPolicy("read", "ALLOW", 2, "/orders/{id}", ["isAuthenticated()"]),
    ]);
    expect(await manager.check(alice, request("DELETE", "/orders/7"))).toMatchObject({
      granted: false,
      policyName: "delete",
    });
    expect(await manager.check(alice, request("GET", "/orders/7"))).toMatchObject({
      granted: true,
      policyName: "read",
    });
    expect(await manager.check(undefined, request("GET", "/orders/7"))).toMatchObject({
      granted: false,
      policyName: "read",
    });
  });

  it("no match: granted by default, denied with no-match-decision DENY", async () => {
    const allow = await pdpWith([urlPolicy("a", "ALLOW", 1, "/a", ["denyAll"])]);
    expect(await allow.manager.check(alice, request("GET", "/b"))).toMatchObject({
      granted: true,
      reason: "no policy matched",
    });
    const deny = await pdpWith([urlPolicy("a", "ALLOW", 1, "/a", ["denyAll"])], { noMatchGranted: false });
    expect((await deny.manager.check(alice, request("GET", "/b"))).granted).toBe(false);
  });

  it("drops inactive, PENDING and REJECTED policies and reports them", async () => {
    const { manager } = await pdpWith([
      urlPolicy("inactive", "DENY", 1, "/x", [], { isActive: false }),
      urlPolicy("pending", "DENY", 2, "/x", [], { source: "AI_GENERATED", approvalStatus: "PENDING" }),
      urlPolicy("rejected", "DENY", 3, "/x", [], {
        source: "AI_GENERATED",
        approvalStatus: "REJECTED",
        isActive: false,
      }),
      urlPolicy("approved", "ALLOW", 4, "/x", ["hasRole('USER')"], {
        source: "AI_GENERATED",
        approvalStatus: "APPROVED",
      }),
    ]);
    expect(manager.report).toMatchObject({
      total: 4,
      loaded: 1,
      skipped: { inactive: 2, pending: 1, rejected: 0 },
    });
    expect(await manager.check(alice, request("GET", "/x"))).toMatchObject({
      granted: true,
      policyName: "approved",
    });
  });

  it("a condition that cannot compile denies when its target matches (fail closed) and is audited", async () => {
    const { manager, audit } = await pdpWith([urlPolicy("broken", "ALLOW", 1, "/x", ["hasRole("])]);
    expect(manager.report?.broken.map((b) => b.name)).toEqual(["broken"]);
    const d = await manager.check(admin, request("GET", "/x"));
    expect(d.granted).toBe(false);
    expect(audit.events().map((e) => e.type)).toEqual(["authz.evaluation-error", "authz.denied"]);
  });

  it("audits a denial with uri, action, outcome and the matched policy, and marks it audited", async () => {
    const { manager, audit, stored } = await pdpWith([
      urlPolicy("admins", "ALLOW", 1, "/admin/**", ["hasRole('ADMIN')"]),
    ]);
    const d = await manager.check(alice, request("POST", "/admin/users"));
    expect(d.audited).toBe(true);
    const [event] = audit.events();
    expect(event).toMatchObject({
      type: "authz.denied",
      outcome: "denied",
      principal: "alice",
      data: {
        uri: "/admin/users",
        action: "POST",
        policyId: stored[0]!.id,
        policyName: "admins",
        effect: "ALLOW",
      },
    });
    await manager.check(admin, request("POST", "/admin/users"));
    expect(audit.events()).toHaveLength(1);
  });

  it("reports shadowed policies: /admin/** before /admin/users/** can never let the later one decide", async () => {
    const { manager } = await pdpWith([
      urlPolicy("admin area", "ALLOW", 1, "/admin/**", ["hasRole('ADMIN')"]),
      urlPolicy("user admin", "ALLOW", 2, "/admin/users/**", ["hasRole('USER_ADMIN')"]),
      urlPolicy("orders", "ALLOW", 3, "/orders/{id}", ["isAuthenticated()"]),
      urlPolicy("orders GET", "ALLOW", 4, "/orders/*", ["permitAll"], { method: "GET" }),
    ]);
    expect(manager.report?.shadowed.map((s) => s.name)).toEqual(["user admin"]);
    expect(manager.report?.shadowed[0]?.reason).toContain("admin area");
  });
});

describe("DynamicAuthorizationManager: priority under incremental adds", () => {
  it("policies added one by one, reloading after each, decide in numeric priority order (not as strings)", async () => {
    const { manager, repository } = await pdpWith([]);
    // As strings "10" < "100" < "2" < "20" < "9"; as numbers 2 < 9 < 10 < 20 < 100.
    for (const priority of [10, 100, 2, 20, 9]) {
      await repository.create(
        urlPolicy(`p${priority}`, "ALLOW", priority, "/x", [`hasAuthority('A${priority}')`]),
      );
      await manager.reload();
    }
    const order = manager.policySet.policies.map((p) => p.name);
    expect(order).toEqual(["p2", "p9", "p10", "p20", "p100"]);
    const holder = caller("h", "A9", "A10");
    expect(await manager.check(holder, request("GET", "/x"))).toMatchObject({
      granted: false,
      policyName: "p2",
    });
  });
});

describe("DynamicAuthorizationManager: reload", () => {
  it("swaps atomically: a request sees the old or the new set, never a mix, and the last change wins", async () => {
    const { manager, repository, stored } = await pdpWith([
      urlPolicy("gate", "ALLOW", 1, "/x", ["hasRole('ADMIN')"]),
    ]);
    const before = manager.policySet;
    const checks = Array.from({ length: 50 }, () => manager.check(alice, request("GET", "/x")));
    await repository.update(stored[0]!.id, stored[0]!.version, {
      rules: [{ name: "r", conditions: [{ expression: "permitAll" }] }],
    });
    const reloads = [manager.reload(), manager.reload(), manager.reload()];
    const results = await Promise.all(checks);
    // Checks that started before the reload decided on the set they started with.
    expect(results.every((r) => r.granted === false)).toBe(true);
    await Promise.all(reloads);
    expect(manager.policySet).not.toBe(before);
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(true);
  });

  it("a failing PRP keeps the old set", async () => {
    const { manager } = await pdpWith([urlPolicy("gate", "DENY", 1, "/x")]);
    const set = manager.policySet;
    expect(set.policies).toHaveLength(1);
    (manager as unknown as { o: { prp: { findUrlPolicies: () => Promise<never> } } }).o.prp = {
      findUrlPolicies: () => Promise.reject(new Error("store down")),
    } as never;
    await expect(manager.reload()).rejects.toThrow("store down");
    expect(manager.policySet).toBe(set);
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(false);
  });
});

describe("DynamicAuthorizationManager: explain (the simulator)", () => {
  it("returns the decision and the trail of matching policies in order", async () => {
    const { manager } = await pdpWith([
      urlPolicy("admins only", "ALLOW", 1, "/admin/**", ["hasRole('ADMIN')"]),
      urlPolicy("everyone", "ALLOW", 2, "/**", ["permitAll"]),
    ]);
    const { decision, trail } = manager.explain(
      { authentication: alice, method: "GET", path: "/admin/x", remoteAddress: "127.0.0.1" },
      undefined,
    );
    expect(decision).toMatchObject({ granted: false, policyName: "admins only" });
    expect(trail.map((t) => [t.name, t.outcome, t.conditionHolds])).toEqual([
      ["admins only", "decided", false],
      ["everyone", "not-reached", true],
    ]);
  });
});
