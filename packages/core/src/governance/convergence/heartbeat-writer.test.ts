import { describe, expect, it } from "vitest";
import { convergenceHarness, served, T0 } from "./convergence.fixture.js";
import { HEARTBEAT_PRUNE_AFTER_MS, servingOf } from "./heartbeat-writer.js";
import type { InstanceHeartbeatStore } from "./instance-heartbeat-store.js";
import { MAX_HEARTBEAT_SERVINGS } from "./instance-heartbeat-store.js";

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
    const store = h.heartbeats as InstanceHeartbeatStore;
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
