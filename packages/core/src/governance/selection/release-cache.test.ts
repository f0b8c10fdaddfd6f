import { afterEach, describe, expect, it, vi } from "vitest";
import type { ManualClock } from "../../kernel/clock.js";
import { ALICE, governanceHarness, KEY, V19, V20 } from "../governance.fixture.js";
import { RELEASES_CHANGED_EVENT } from "../governance-audit.js";
import { InMemoryReleaseRegistry } from "../registry/in-memory-release-registry.js";
import { PLATFORM_GLOBAL_SCOPE as GLOBAL, type ReleaseScopeHead } from "../registry/release-registry.js";
import { ReleaseCache } from "./release-cache.js";
import { rowOf, selectorHarness } from "./selection.fixture.js";

afterEach(() => {
  vi.useRealTimers();
});

/** Moves the manual clock and the fake interval timers together, one second at a time. */
async function tick(clock: ManualClock, ms: number): Promise<void> {
  for (let done = 0; done < ms; done += 1_000) {
    const step = Math.min(1_000, ms - done);
    clock.advance(step);
    await vi.advanceTimersByTimeAsync(step);
  }
}

const version = (h: ReturnType<typeof selectorHarness>) =>
  h.cache
    .current()
    ?.scopes.get(GLOBAL)
    ?.find((r) => r.status === "ACTIVE")?.promptVersion;

describe("ReleaseCache", () => {
  it("serves nothing before its first read, then never a snapshot older than the TTL while the registry is down", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const h = selectorHarness({ ttlMs: 10_000, pollIntervalMs: 0 });
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "ACTIVE")]);
    h.cache.start();
    // Start does not wait for the read.
    expect(h.cache.current()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(version(h)).toBe(V19);
    h.outage.down = true;
    await tick(h.clock, 10_000);
    expect(h.cache.current()?.readAt).toBe(Date.UTC(2026, 9, 1));
    await tick(h.clock, 1);
    expect(h.cache.current()).toBeUndefined();
    await tick(h.clock, 30_000);
    // Decisions asking for it do not hammer the failing registry: one try a second at most.
    const tried = h.outage.reads;
    for (let i = 0; i < 100; i++) {
      expect(h.cache.current()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(h.outage.reads - tried).toBeLessThanOrEqual(1);
    const errors = () => h.logger.lines.filter((l) => l.level === "error");
    expect(errors()).toHaveLength(1);
    h.outage.down = false;
    await tick(h.clock, 5_000);
    expect(version(h)).toBe(V19);
    expect(h.logger.lines.filter((l) => l.level === "info").map((l) => l.message)).toEqual([
      "release registry readable again",
    ]);
    expect(errors()).toHaveLength(1);
    await h.cache.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reads one at a time: any number of triggers during a read cost one more read, which sees the change", async () => {
    const registry = new InMemoryReleaseRegistry();
    let reads = 0;
    let open: (() => void) | undefined;
    const gated = {
      async heads(): Promise<ReleaseScopeHead[]> {
        reads++;
        const heads = await registry.heads();
        await new Promise<void>((r) => {
          open = r;
        });
        return heads;
      },
    };
    const h = selectorHarness({ registry, pollIntervalMs: 0 });
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V19, "ACTIVE")]);
    const cache = new ReleaseCache({
      registry: gated,
      counters: h.counters,
      events: h.events,
      clock: h.clock,
      logger: h.logger,
      ttlMs: 60_000,
      pollIntervalMs: 0,
    });
    cache.start();
    await vi.waitFor(() => expect(open).toBeDefined());
    // A change lands while the first read is under way: this instance's event, then more triggers.
    await h.put(GLOBAL, [rowOf(h.catalog, GLOBAL, V20, "ACTIVE")]);
    await h.events.publish(RELEASES_CHANGED_EVENT, { registryScope: GLOBAL, kind: "TRANSITION_APPLIED" });
    for (let i = 0; i < 10; i++) void cache.refresh();
    expect(reads).toBe(1);
    const firstOpen = open!;
    open = undefined;
    firstOpen();
    await vi.waitFor(() => expect(open).toBeDefined());
    expect(reads).toBe(2);
    open!();
    await cache.stop();
    expect(reads).toBe(2);
    expect(cache.current()?.scopes.get(GLOBAL)?.[0]?.promptVersion).toBe(V20);
  });

  it("converges across two instances on one registry and one counter store: B serves A's transition after its next poll", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const a = governanceHarness();
    await a.seed({ [V19]: "ACTIVE", [V20]: "CANARY" });
    await a.evidence(V20);
    const b = selectorHarness({ registry: a.registry, counters: a.counters, clock: a.clock });
    b.cache.start();
    await vi.advanceTimersByTimeAsync(0);
    // v20's canary takes the whole scope.
    expect(b.selector.select(b.event({ userId: "u" })).source).toBe("CANARY");
    await tick(a.clock, 1_000);
    const receipt = await a.governance.transition(
      { promptKey: KEY, promptVersion: V20, targetReleaseStatus: "ACTIVE", rationale: "ship" },
      ALICE,
    );
    expect(receipt.outcome).toBe("APPLIED");
    // B has no event of A's: the counter moved, read at B's next poll (5 s after its start).
    await tick(a.clock, 3_000);
    expect(b.selector.select(b.event({ userId: "u" })).source).toBe("CANARY");
    await tick(a.clock, 1_000);
    expect(b.selector.select(b.event({ userId: "u" }))).toMatchObject({
      version: V20,
      source: "REGISTRY",
      release: { status: "ACTIVE", approvedBy: "alice" },
    });
    await b.cache.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("with the poll off, another instance's change is served within the TTL (at the half-TTL refresh)", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const a = governanceHarness();
    await a.seed({ [V19]: "ACTIVE", [V20]: "CANARY" });
    await a.evidence(V20);
    const b = selectorHarness({
      registry: a.registry,
      counters: a.counters,
      clock: a.clock,
      pollIntervalMs: 0,
    });
    b.cache.start();
    await vi.advanceTimersByTimeAsync(0);
    await tick(a.clock, 1_000);
    await a.governance.transition(
      { promptKey: KEY, promptVersion: V20, targetReleaseStatus: "ACTIVE", rationale: "ship" },
      ALICE,
    );
    const run = () => b.selector.select(b.event({ userId: "u" }));
    await tick(a.clock, 28_000);
    expect(run().source).toBe("CANARY");
    await tick(a.clock, 1_000);
    expect(run()).toMatchObject({ source: "REGISTRY", version: V20 });
    await b.cache.stop();
  });
});
