import { describe, expect, it } from "vitest";
import { CountingIds, KEY, V18, V19, V20 } from "../governance.fixture.js";
import { PLATFORM_GLOBAL_SCOPE as GLOBAL } from "../registry/release-registry.js";
import { InMemoryManagedResourceRepository } from "../../resources/in-memory-managed-resource-repository.js";
import { RouteTable, type Route } from "../../web/route-table.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { ManualClock } from "../../kernel/clock.js";
import { ResourceFamilyIndex } from "./resource-family-index.js";
import type { RequestScopeResolver } from "./request-scope-resolver.js";
import { rowOf, selectorHarness } from "./selection.fixture.js";

/** A host's resolver: scope and tenant from what the event's detail carries. */
const byDetail: RequestScopeResolver = {
  resolve: (e: DecisionEvent) => ({
    registryScope: String(e.detail?.scope ?? ""),
    tenant: e.detail?.tenant === undefined ? undefined : String(e.detail.tenant),
  }),
};

describe("RegistryBundleSelector: which release a request runs", () => {
  it("runs the latest ACTIVE release of the request's scope, else PLATFORM_GLOBAL's, recording the release", async () => {
    const h = selectorHarness({ resolver: byDetail });
    const approval = { by: "alice", at: 1_000, rationale: "go" };
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "ACTIVE")]);
    await h.put("eu", [rowOf(h.catalog, "eu", V20, "ACTIVE", { approval })]);
    await h.put("us", [rowOf(h.catalog, "us", V20, "AVAILABLE")]);
    await h.cache.refresh();
    const eu = h.selector.select(h.event({ detail: { scope: "eu" } }));
    expect(eu).toMatchObject({
      version: V20,
      source: "REGISTRY",
      bundleHash: h.catalog.find(V20)!.manifest.bundleHash,
    });
    expect(eu.release).toEqual({
      registryScope: "eu",
      promptKey: KEY,
      promptVersion: V20,
      status: "ACTIVE",
      contractVersion: h.catalog.find(V20)!.manifest.descriptor.contractVersion,
      approvedAt: 1_000,
      approvedBy: "alice",
    });
    // A scope with no ACTIVE row of its own, an unknown scope and a blank one run PLATFORM_GLOBAL's.
    for (const scope of ["us", "nowhere", ""])
      expect(h.selector.select(h.event({ detail: { scope } }))).toMatchObject({
        version: V19,
        source: "REGISTRY",
        release: { registryScope: GLOBAL },
      });
    expect(h.fallbacks()).toEqual([]);
  });

  it("takes the ACTIVE release approved last when two templates are ACTIVE, and keeps an event's first selection", async () => {
    const h = selectorHarness();
    const at = (t: number) => ({ approval: { by: "bob", at: t, rationale: "r" } });
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE", at(200)),
      rowOf(h.catalog, GLOBAL, V20, "ACTIVE", at(100)),
    ]);
    await h.cache.refresh();
    const first = h.event();
    expect(h.selector.select(first).version).toBe(V19);
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE", at(200)),
      rowOf(h.catalog, GLOBAL, V20, "ACTIVE", at(300)),
    ]);
    await h.cache.refresh();
    expect(h.selector.select(h.event()).version).toBe(V20);
    expect(h.selector.select(first).version).toBe(V19);
  });

  it("runs the CANARY release for 10% ± 0.5 of 50,000 requesters, the same answer for a requester every time", async () => {
    const h = selectorHarness();
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE"),
      rowOf(h.catalog, GLOBAL, V20, "CANARY", { canaryPercent: 10 }),
    ]);
    await h.cache.refresh();
    const counts = new Map<string, number>();
    for (let i = 0; i < 50_000; i++) {
      const s = h.selector.select(h.event({ userId: `user-${i}` }));
      const key = `${s.source} ${s.version} ${s.release?.status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([`CANARY ${V20} CANARY`, `REGISTRY ${V19} ACTIVE`]);
    const share = (counts.get(`CANARY ${V20} CANARY`)! / 50_000) * 100;
    expect(Math.abs(share - 10)).toBeLessThanOrEqual(0.5);
    const sources = (user: string) =>
      new Set(Array.from({ length: 5 }, () => h.selector.select(h.event({ userId: user })).source));
    for (let i = 0; i < 50; i++) expect(sources(`user-${i}`).size).toBe(1);
    // No user: the session places the requester, then the event.
    const session = h.selector.select(h.event({ sessionHandle: "s-1" })).source;
    expect(h.selector.select(h.event({ sessionHandle: "s-1" })).source).toBe(session);
  });

  it("uses the CANARY release of the request's scope when it has releases, PLATFORM_GLOBAL's when it has none", async () => {
    const h = selectorHarness({ resolver: byDetail });
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "ACTIVE"), rowOf(h.catalog, GLOBAL, V20, "CANARY")]);
    await h.put("pinned", [rowOf(h.catalog, "pinned", V19, "ACTIVE")]);
    await h.put("trial", [rowOf(h.catalog, "trial", V20, "CANARY")]);
    await h.cache.refresh();
    const run = (scope: string) => h.selector.select(h.event({ userId: "u", detail: { scope } }));
    expect(run("pinned")).toMatchObject({ source: "REGISTRY", release: { registryScope: "pinned" } });
    expect(run("trial")).toMatchObject({ source: "CANARY", release: { registryScope: "trial" } });
    expect(run("other")).toMatchObject({ source: "CANARY", release: { registryScope: GLOBAL } });
  });

  it("narrows the canary to the resolver's tenants", async () => {
    const h = selectorHarness({ resolver: byDetail });
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE"),
      rowOf(h.catalog, GLOBAL, V20, "CANARY", { canaryTenants: ["acme"] }),
    ]);
    await h.cache.refresh();
    const source = (detail: DecisionEvent["detail"]) =>
      h.selector.select(h.event({ userId: "u", detail })).source;
    expect(source({ tenant: "acme" })).toBe("CANARY");
    expect(source({ tenant: "ACME" })).toBe("REGISTRY");
    expect(source({})).toBe("REGISTRY");
  });

  it("narrows the canary to resource families: the managed resource's service owner, else the route's feature, or a path", async () => {
    const clock = new ManualClock(Date.UTC(2026, 9, 1));
    const routes = new RouteTable();
    const route = (method: Route["method"], path: string, feature: string): Route => ({
      method,
      path,
      name: `${method} ${path}`,
      description: "",
      feature,
      access: "chain-rules",
      handler: () => undefined,
    });
    routes.add(route("GET", "/api/orders/{id}", "app.orders"));
    routes.add(route("GET", "/api/customers/{id}", "app.customers"));
    routes.add(route("GET", "/api/invoices/{id}", "app.invoices"));
    const resources = new InMemoryManagedResourceRepository({ clock, ids: new CountingIds() });
    await resources.create({
      resourceIdentifier: "/api/orders/{id}",
      resourceType: "URL",
      httpMethod: "GET",
      friendlyName: "order",
      description: "",
      serviceOwner: "OrderService",
      status: "NEEDS_DEFINITION",
      editedFields: [],
      named: false,
    });
    const index = new ResourceFamilyIndex({ routes, resources, logger: new RecordingLogger() });
    const h = selectorHarness({ clock, familyOf: index.familyOf });
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE"),
      rowOf(h.catalog, GLOBAL, V20, "CANARY", {
        canaryResourceFamilies: ["OrderService", "app.customers", "/api/invoices"],
      }),
    ]);
    await h.cache.refresh();
    await index.refresh(h.cache.current()!);
    const source = (method: string | undefined, target: string | undefined) =>
      h.selector.select(h.event({ userId: "u", method, target })).source;
    expect(source("GET", "/api/orders/42")).toBe("CANARY");
    expect(source("GET", "/api/customers/7?x=1")).toBe("CANARY");
    expect(source("GET", "/api/invoices/9")).toBe("CANARY");
    expect(source("GET", "/api/invoices/../orders-admin")).toBe("REGISTRY");
    expect(source("DELETE", "/api/customers/7")).toBe("REGISTRY");
    expect(source("GET", "/api/unrouted")).toBe("REGISTRY");
    expect(source(undefined, undefined)).toBe("REGISTRY");
    expect(index.familyOf("GET", "/api/orders/1")).toBe("OrderService");
    expect(index.familyOf("GET", "/api/customers/1")).toBe("app.customers");
  });
});

describe("RegistryBundleSelector: the build default, recorded once per version or reason", () => {
  it("falls back for every reason, each recorded exactly once in the log and the audit trail", async () => {
    let throwing = false;
    const h = selectorHarness({
      ttlMs: 10_000,
      resolver: {
        resolve: () => {
          if (throwing) throw new Error("host resolver broke");
          return { registryScope: GLOBAL };
        },
      },
    });
    const twice = () => [h.selector.select(h.event()), h.selector.select(h.event())];
    // Not read yet.
    expect(twice().map((s) => s.source)).toEqual(["BUILD_DEFAULT", "BUILD_DEFAULT"]);
    // Nothing chose: no ACTIVE release anywhere.
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "AVAILABLE")]);
    await h.cache.refresh();
    expect(twice().map((s) => s.version)).toEqual([V19, V19]);
    // A version this build does not know, then one it keeps as a record only.
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, "2099.01.01-v99", "ACTIVE")]);
    await h.cache.refresh();
    expect(twice()[1]).toMatchObject({ source: "BUILD_DEFAULT", version: V19, requested: "2099.01.01-v99" });
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V18, "ACTIVE")]);
    await h.cache.refresh();
    expect(twice()[1]).toMatchObject({ source: "BUILD_DEFAULT", requested: V18 });
    // Another build of v20 registered the row (its hash is not this build's).
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V20, "ACTIVE", { artifactHash: "f".repeat(64) })]);
    await h.cache.refresh();
    expect(twice()[1]).toMatchObject({ source: "BUILD_DEFAULT", version: V19, requested: V20 });
    // The host's resolver throws.
    throwing = true;
    expect(twice()[1]?.source).toBe("BUILD_DEFAULT");
    // Unreadable past the TTL.
    h.outage.down = true;
    h.clock.advance(10_001);
    await h.cache.refresh();
    expect(twice()[1]?.source).toBe("BUILD_DEFAULT");
    expect(h.fallbacks()).toEqual([
      { why: "registry-not-read", ran: V19 },
      { why: "nothing-chose", ran: V19 },
      { why: "unknown", requested: "2099.01.01-v99", ran: V19, registryScope: GLOBAL },
      { why: "record-only", requested: V18, ran: V19, registryScope: GLOBAL },
      { why: "hash-mismatch", requested: V20, ran: V19, registryScope: GLOBAL },
      { why: "selector-failed", ran: V19, error: "Error: host resolver broke" },
      { why: "registry-unreadable", ran: V19 },
    ]);
    expect(h.logger.lines.filter((l) => l.level === "warn")).toHaveLength(7);
  });

  it("reports what it serves per scope: the registry's releases, or the build default before the first read", async () => {
    const h = selectorHarness();
    const hash = (v: string) => h.catalog.find(v)!.manifest.bundleHash;
    expect(h.selector.serving()).toEqual([
      {
        registryScope: GLOBAL,
        promptKey: KEY,
        promptVersion: V19,
        bundleHash: hash(V19),
        source: "BUILD_DEFAULT",
      },
    ]);
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "ACTIVE"), rowOf(h.catalog, GLOBAL, V20, "CANARY")]);
    await h.put("eu", [rowOf(h.catalog, "eu", V18, "ACTIVE")]);
    await h.cache.refresh();
    expect(h.selector.serving()).toEqual([
      {
        registryScope: GLOBAL,
        promptKey: KEY,
        promptVersion: V19,
        bundleHash: hash(V19),
        source: "REGISTRY",
      },
      { registryScope: GLOBAL, promptKey: KEY, promptVersion: V20, bundleHash: hash(V20), source: "CANARY" },
      // This build keeps v18 as a record only: the scope runs the build default.
      {
        registryScope: "eu",
        promptKey: KEY,
        promptVersion: V19,
        bundleHash: hash(V19),
        source: "BUILD_DEFAULT",
      },
    ]);
  });
});
