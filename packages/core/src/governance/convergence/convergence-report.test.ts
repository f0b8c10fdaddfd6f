import { describe, expect, it } from "vitest";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import { V19, V20 } from "../governance.fixture.js";
import { PLATFORM_GLOBAL_SCOPE as GLOBAL } from "../registry/release-registry.js";
import { rowOf, selectorHarness } from "../selection/selection.fixture.js";
import { StoreConvergenceReports } from "./convergence-report.js";
import { HeartbeatWriter } from "./heartbeat-writer.js";
import { InMemoryInstanceHeartbeatStore } from "./in-memory-instance-heartbeat-store.js";
import {
  BOUND_MS,
  convergenceHarness,
  hashOf,
  row,
  SILENT_AFTER_MS,
  served,
  T0,
} from "./convergence.fixture.js";

const CANARY = { canaryPercent: 10, canaryTenants: ["t1"] };

describe("the convergence report", () => {
  it("flags a stale and a silent instance beside a converged one, two instances beating through the store", async () => {
    const h = convergenceHarness();
    await h.put("PLATFORM_GLOBAL", [row("v19", "ACTIVE"), row("v20", "CANARY", CANARY)]);
    const good = h.instance("node-a", [served("v19", "REGISTRY"), served("v20", "CANARY")]);
    const behind = h.instance("node-b", [served("v18", "REGISTRY")]);
    await good.writer.beatOnce();
    await behind.writer.beatOnce();

    // Within the bound of the change, the instance still on v18 is PENDING.
    let report = await h.reports.report();
    expect(report.instances.map((i) => [i.instanceId, i.verdict])).toEqual([
      ["node-a", "CONVERGED"],
      ["node-b", "PENDING"],
    ]);
    expect(report.scopes).toEqual([
      {
        registryScope: "PLATFORM_GLOBAL",
        releases: [
          expect.objectContaining({
            promptVersion: "v19",
            status: "ACTIVE",
            bundleHash: hashOf("v19"),
            canary: null,
          }),
          expect.objectContaining({
            promptVersion: "v20",
            status: "CANARY",
            changedAt: T0,
            canary: { percent: 10, tenants: ["t1"], resourceFamilies: [] },
          }),
        ],
      },
    ]);

    // Past the bound it is STALE, though it beats.
    h.clock.advance(BOUND_MS + 1);
    await good.writer.beatOnce();
    await behind.writer.beatOnce();
    report = await h.reports.report();
    const b = report.instances.find((i) => i.instanceId === "node-b")!;
    expect(b.verdict).toBe("STALE");
    expect(b.reason).toContain("serves v18");
    expect(b.reason).toContain("the registry runs ACTIVE v19");
    expect(b.reason).toContain("does not serve the registry's CANARY v20");
    // Past silent-after without a beat, the converged one is SILENT.
    h.clock.advance(SILENT_AFTER_MS + 1);
    await behind.writer.beatOnce();
    report = await h.reports.report();
    expect(report.instances.map((i) => [i.instanceId, i.verdict])).toEqual([
      ["node-a", "SILENT"],
      ["node-b", "STALE"],
    ]);
    expect(report.instances[0]!.reason).toBe(`no heartbeat for ${SILENT_AFTER_MS + 1} ms`);
    expect(report).toMatchObject({
      generatedAt: h.clock.now(),
      boundMs: BOUND_MS,
      silentAfterMs: SILENT_AFTER_MS,
    });
  });

  it("judges a scope without releases against PLATFORM_GLOBAL's, and a scope's own ACTIVE against it", async () => {
    const h = convergenceHarness();
    await h.put("PLATFORM_GLOBAL", [row("v19", "ACTIVE")]);
    await h.put("tenant-b", [row("v20", "ACTIVE")]);
    const n = h.instance("node-a", [
      served("v19", "REGISTRY"),
      served("v19", "REGISTRY", "tenant-a"),
      served("v19", "REGISTRY", "tenant-b"),
    ]);
    h.clock.advance(BOUND_MS + 1);
    await n.writer.beatOnce();
    const [instance] = (await h.reports.report()).instances;
    expect(instance!.scopes.map((s) => [s.registryScope, s.verdict])).toEqual([
      ["PLATFORM_GLOBAL", "CONVERGED"],
      ["tenant-a", "CONVERGED"],
      ["tenant-b", "STALE"],
    ]);
    expect(instance!.verdict).toBe("STALE");
    expect(instance!.reason).toMatch(/^tenant-b: /);
    // A scope with only a CANARY of its own: the registry selector reports that CANARY there and
    // PLATFORM_GLOBAL's ACTIVE under PLATFORM_GLOBAL; a REGISTRY entry there is not required.
    await h.put("tenant-c", [row("v20", "CANARY")]);
    const c = h.instance("node-c", [served("v19", "REGISTRY"), served("v20", "CANARY", "tenant-c")]);
    await c.writer.beatOnce();
    const nodeC = (await h.reports.report()).instances.find((i) => i.instanceId === "node-c")!;
    expect(nodeC.scopes.map((s) => [s.registryScope, s.verdict])).toEqual([
      ["PLATFORM_GLOBAL", "CONVERGED"],
      ["tenant-c", "CONVERGED"],
    ]);
    // One scope asked for: its releases and each instance's entries there only.
    const one = await h.reports.report("tenant-b");
    expect(one.scopes.map((s) => s.registryScope)).toEqual(["tenant-b"]);
    expect(one.instances.find((i) => i.instanceId === "node-a")!.scopes.map((s) => s.registryScope)).toEqual([
      "tenant-b",
    ]);
  });

  it("is PENDING after a release changes until the bound passes, judged from the row's last change", async () => {
    const h = convergenceHarness();
    await h.put("PLATFORM_GLOBAL", [row("v19", "ACTIVE")]);
    const n = h.instance("node-a", [served("v19", "REGISTRY")]);
    h.clock.advance(10 * BOUND_MS);
    // v20 replaces v19 now: the instance has not read it yet.
    const changed = h.clock.now();
    await h.put("PLATFORM_GLOBAL", [
      row("v19", "DEPRECATED", { updatedAt: changed }),
      row("v20", "ACTIVE", { updatedAt: changed, approval: { by: "bob", at: changed, rationale: "r" } }),
    ]);
    await n.writer.beatOnce();
    expect((await h.reports.report()).instances[0]!.verdict).toBe("PENDING");
    h.clock.advance(BOUND_MS + 1);
    await n.writer.beatOnce();
    expect((await h.reports.report()).instances[0]!.verdict).toBe("STALE");
    n.selector.serves = [served("v20", "REGISTRY")];
    await n.writer.beatOnce();
    expect((await h.reports.report()).instances[0]!.verdict).toBe("CONVERGED");
  });

  it("flags a canary the registry ended, the build default, and a configured instance as not following", async () => {
    const h = convergenceHarness();
    await h.put("PLATFORM_GLOBAL", [row("v19", "ACTIVE"), row("v20", "DEPRECATED")]);
    h.clock.advance(BOUND_MS + 1);
    for (const [id, serves] of [
      ["ended-canary", [served("v19", "REGISTRY"), served("v20", "CANARY")]],
      ["fallback", [served("v18", "BUILD_DEFAULT")]],
      ["configured", [served("v19", "CONFIGURATION")]],
      ["new", [served("v18", "BUILD_DEFAULT")]],
    ] as const)
      await h.instance(id, serves, id === "new" ? h.clock.now() : T0 - 1).writer.beatOnce();
    // The configuration selector with no version configured serves the build default, even v19 here.
    await h
      .instance("config-default", [served("v19", "BUILD_DEFAULT")], T0 - 1, "CONFIGURATION")
      .writer.beatOnce();
    const byId = Object.fromEntries((await h.reports.report()).instances.map((i) => [i.instanceId, i]));
    expect(byId["ended-canary"]).toMatchObject({ verdict: "STALE" });
    expect(byId["ended-canary"]!.reason).toContain("v20 as CANARY, which the registry no longer runs");
    expect(byId.fallback).toMatchObject({ verdict: "STALE" });
    expect(byId.fallback!.reason).toContain("serves the build default v18");
    expect(byId.configured).toMatchObject({ verdict: "NOT_FOLLOWING" });
    expect(byId["config-default"]).toMatchObject({ verdict: "NOT_FOLLOWING" });
    expect(byId["config-default"]!.reason).toContain("serves v19 (BUILD_DEFAULT)");
    // A just-started instance that has not read the registry yet is PENDING, not STALE.
    expect(byId.new).toMatchObject({ verdict: "PENDING" });
  });

  it("answers no instances and every scope's executing releases before anyone beat", async () => {
    const h = convergenceHarness();
    await h.put("PLATFORM_GLOBAL", [row("v18", "RETIRED"), row("v19", "ACTIVE")]);
    const report = await h.reports.report();
    expect(report.instances).toEqual([]);
    expect(report.scopes[0]!.releases.map((r) => r.promptVersion)).toEqual(["v19"]);
  });
});

describe("the convergence report over the real registry selector", () => {
  it("judges what RegistryBundleSelector.serving() beats: converged, pending after a change, converged after its refresh", async () => {
    const s = selectorHarness();
    const heartbeats = new InMemoryInstanceHeartbeatStore();
    const reports = new StoreConvergenceReports({
      registry: s.registry,
      heartbeats,
      clock: s.clock,
      boundMs: BOUND_MS,
      silentAfterMs: SILENT_AFTER_MS,
    });
    const writer = new HeartbeatWriter({
      store: heartbeats,
      identity: new InstanceIdentity("node-r", s.clock.now() - 3_600_000),
      selector: s.selector,
      clock: s.clock,
      logger: s.logger,
      intervalMs: 15_000,
      selectorKind: "REGISTRY",
    });
    const at = s.clock.now();
    const approval = { by: "alice", at, rationale: "r" };
    await s.put(GLOBAL, [rowOf(s.catalog, GLOBAL, V19, "ACTIVE", { approval, updatedAt: at })]);
    await s.put("tenant-a", [rowOf(s.catalog, "tenant-a", V20, "CANARY", { approval, updatedAt: at })]);
    await s.cache.refresh();
    await writer.beatOnce();
    const verdicts = async () =>
      (await reports.report()).instances[0]!.scopes.map((x) => `${x.registryScope} ${x.verdict}`);
    expect(await verdicts()).toEqual(["PLATFORM_GLOBAL CONVERGED", "tenant-a CONVERGED"]);

    // v20 becomes PLATFORM_GLOBAL's ACTIVE; this instance has not read it yet.
    s.clock.advance(BOUND_MS * 2);
    await s.cache.refresh(); // the cache's own timer keeps its snapshot within the TTL
    const changed = { approval: { ...approval, at: s.clock.now() }, updatedAt: s.clock.now() };
    await s.put(GLOBAL, [
      rowOf(s.catalog, GLOBAL, V19, "DEPRECATED", changed),
      rowOf(s.catalog, GLOBAL, V20, "ACTIVE", changed),
    ]);
    await writer.beatOnce();
    expect(await verdicts()).toEqual(["PLATFORM_GLOBAL PENDING", "tenant-a CONVERGED"]);
    await s.cache.refresh();
    await writer.beatOnce();
    expect(await verdicts()).toEqual(["PLATFORM_GLOBAL CONVERGED", "tenant-a CONVERGED"]);
  });
});
