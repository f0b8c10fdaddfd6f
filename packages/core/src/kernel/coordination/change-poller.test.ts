import { describe, expect, it } from "vitest";
import type { Logger } from "../logger.js";
import { ChangePoller } from "./change-poller.js";
import type { ChangeCounters } from "./change-counters.js";
import { InMemoryChangeCounters } from "./in-memory-change-counters.js";

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: log, info: log, warn: log, error: log } as Logger & { lines: string[] };
}

describe("ChangePoller", () => {
  it("fires a topic's listeners when its counter moved since the last poll, never on the baseline", async () => {
    const counters = new InMemoryChangeCounters();
    await counters.bump("a");
    const poller = new ChangePoller({ counters, intervalMs: 0, logger: recordingLogger() });
    const fired: string[] = [];
    poller.watch("a", () => fired.push("a"));
    poller.watch("b", () => fired.push("b"));
    await poller.start();
    expect(fired).toEqual([]);
    await counters.bump("b");
    await poller.poll();
    expect(fired).toEqual(["b"]);
    await poller.poll();
    expect(fired).toEqual(["b"]);
  });

  it("gives a topic watched after the start its baseline at the next poll, and stops a listener on request", async () => {
    const counters = new InMemoryChangeCounters();
    const poller = new ChangePoller({ counters, intervalMs: 0, logger: recordingLogger() });
    await poller.start();
    await counters.bump("late");
    const fired: number[] = [];
    const stop = poller.watch("late", () => fired.push(1));
    await poller.poll();
    expect(fired).toEqual([]);
    await counters.bump("late");
    await poller.poll();
    expect(fired).toEqual([1]);
    stop();
    await counters.bump("late");
    await poller.poll();
    expect(fired).toEqual([1]);
  });

  it("logs a failing store once and its recovery once, and a throwing listener without stopping the others", async () => {
    const inner = new InMemoryChangeCounters();
    let down = false;
    const counters: ChangeCounters = {
      bump: (t) => inner.bump(t),
      read: (t) => (down ? Promise.reject(new Error("down")) : inner.read(t)),
    };
    const logger = recordingLogger();
    const poller = new ChangePoller({ counters, intervalMs: 0, logger });
    const fired: string[] = [];
    poller.watch("t", () => {
      throw new Error("listener broke");
    });
    poller.watch("t", () => fired.push("second"));
    await poller.start();
    down = true;
    await poller.poll();
    await poller.poll();
    down = false;
    await inner.bump("t");
    await poller.poll();
    expect(logger.lines.filter((l) => l.startsWith("change poll failed"))).toHaveLength(1);
    expect(logger.lines.filter((l) => l === "change poll recovered")).toHaveLength(1);
    expect(logger.lines).toContain("change listener failed");
    expect(fired).toEqual(["second"]);
  });
});
