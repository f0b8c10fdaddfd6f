import { HEARTBEAT_PRUNE_AFTER_MS, servingOf } from "./heartbeat-writer.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { createPlatform } from "../../kernel/platform.js";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { ReleaseEvidenceLedger } from "../evidence/release-evidence-ledger.js";
import { LedgerKindGate } from "../governance.fixture.js";
import { promptGovernancePlugin } from "../governance-plugin.js";
import { EvidenceGate } from "../release-governance.js";
import { convergenceHarness, served, ServingSelector, T0 } from "./convergence.fixture.js";
import { ConvergenceReports } from "./convergence-report.js";
import { InstanceHeartbeatStore, MAX_HEARTBEAT_SERVINGS } from "./instance-heartbeat-store.js";

describe("HeartbeatWriter", () => {
  it("beats its identity and what the selector serves at start, and prunes instances silent for a day", async () => {
    const h = convergenceHarness();
    await h.heartbeats.beat({
      instanceId: "gone",
      startedAt: 0,
      at: T0 - HEARTBEAT_PRUNE_AFTER_MS - 1,
      serving: [],
    });
    const n = h.instance("node-a", [served("v19", "REGISTRY")], T0 - 5);
    await n.writer.start();
    await n.writer.stop();
    expect(await h.heartbeats.list()).toEqual([
      { instanceId: "node-a", startedAt: T0 - 5, at: T0, serving: [served("v19", "REGISTRY")] },
    ]);
  });

  it("logs a failing beat once and its recovery once, never throwing", async () => {
    const h = convergenceHarness();
    const n = h.instance("node-a", [served("v19", "REGISTRY")]);
    let down = true;
    const store: InstanceHeartbeatStore = h.heartbeats;
    const beat = store.beat.bind(store);
    store.beat = async (x) => {
      if (down) throw new Error("the database is down");
      return beat(x);
    };
    await n.writer.start();
    await n.writer.beatNow();
    down = false;
    await n.writer.beatNow();
    await n.writer.beatNow();
    await n.writer.stop();
    expect(h.logger.lines.map((l) => l.level)).toEqual(["error", "info"]);
    expect(await h.heartbeats.list()).toHaveLength(1);
  });

  it("leaves out entries the store would refuse and duplicates, and keeps at most the store's limit", () => {
    const good = served("v19", "REGISTRY");
    expect(
      servingOf([{ ...good, promptKey: "" }, good, { ...good, bundleHash: "x".repeat(200) }, good]),
    ).toEqual([good]);
    const many = Array.from({ length: MAX_HEARTBEAT_SERVINGS + 5 }, (_, i) =>
      served("v19", "REGISTRY", `s${i}`),
    );
    expect(servingOf(many)).toHaveLength(MAX_HEARTBEAT_SERVINGS);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

function platformWith(selector: BundleSelector | undefined, clock: ManualClock) {
  return createPlatform({
    plugins: [promptsPlugin, promptGovernancePlugin],
    properties: {
      "platform.instance.id": "node-7",
      "platform.prompt.governance.heartbeat.interval": "PT10S",
    },
    register: (c) => {
      c.registerInstance(Clock, clock);
      if (selector) c.registerInstance(BundleSelector, selector);
    },
    overrides: (o) =>
      o.override(EvidenceGate, { useFactory: (c) => new LedgerKindGate(c.resolve(ReleaseEvidenceLedger)) }),
  });
}

describe("registerConvergence", () => {
  it("beats at start and every interval with the selector's serving and kind, until stop", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const clock = new ManualClock(Date.UTC(2026, 9, 1));
    const selector = new ServingSelector([served("v19", "BUILD_DEFAULT")]);
    const platform = platformWith(selector, clock);
    await platform.start();
    const store = platform.resolve(InstanceHeartbeatStore);
    expect(await store.list()).toMatchObject([
      {
        instanceId: "node-7",
        at: clock.now(),
        selector: "CONFIGURATION",
        serving: [served("v19", "BUILD_DEFAULT")],
      },
    ]);
    clock.advance(10_000);
    selector.serves = [served("v20", "BUILD_DEFAULT")];
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await store.list())[0]).toMatchObject({
      at: clock.now(),
      serving: [served("v20", "BUILD_DEFAULT")],
    });
    const report = await platform.resolve(ConvergenceReports).report();
    expect(report.boundMs).toBe(60_000 + 5_000 + 10_000);
    expect(report.instances[0]!.verdict).toBe("NOT_FOLLOWING");
    await platform.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("writes no heartbeat on a platform that makes no decisions (no BundleSelector)", async () => {
    const platform = platformWith(undefined, new ManualClock());
    await platform.start();
    expect(await platform.resolve(InstanceHeartbeatStore).list()).toEqual([]);
    await platform.stop();
  });
});
