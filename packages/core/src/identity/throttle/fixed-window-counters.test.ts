import { describe, expect, it } from "vitest";
import { FixedWindowCounters } from "./fixed-window-counters.js";

describe("FixedWindowCounters", () => {
  it("blocks at max until exactly windowMs after the first count, clamped to one window", () => {
    const counters = new FixedWindowCounters<string>(1_000, 10);
    counters.increment("k", 5_000);
    counters.increment("k", 5_900);
    expect(counters.blockedFor("k", 3, 5_900)).toBe(0);
    expect(counters.blockedFor("k", 2, 5_900)).toBe(100);
    expect(counters.blockedFor("k", 2, 4_000)).toBe(1_000);
    expect(counters.blockedFor("k", 2, 6_000)).toBe(0);
    counters.increment("k", 6_000);
    expect(counters.blockedFor("k", 1, 6_000)).toBe(1_000);
    expect(counters.blockedFor("k", 2, 6_000)).toBe(0);
  });

  it("forgets one key, or every key of a tag", () => {
    const counters = new FixedWindowCounters<string>(1_000, 10);
    counters.increment("a1", 0, "alice");
    counters.increment("a2", 0, "alice");
    counters.increment("b1", 0, "bob");
    counters.increment("ip", 0);
    counters.deleteTagged("alice");
    expect(["a1", "a2", "b1", "ip"].map((k) => counters.blockedFor(k, 1, 0))).toEqual([0, 0, 1_000, 1_000]);
    counters.delete("b1");
    expect(counters.blockedFor("b1", 1, 0)).toBe(0);
    expect(counters.size).toBe(1);
  });

  it("holds at most maxEntries, dropping the oldest window, and sweeps ended windows", () => {
    const counters = new FixedWindowCounters(1_000, 2);
    counters.increment("first", 0);
    counters.increment("second", 1);
    counters.increment("first", 2);
    counters.increment("third", 3);
    expect(counters.size).toBe(2);
    expect(counters.blockedFor("first", 1, 3)).toBe(0);
    expect(counters.blockedFor("third", 1, 3)).toBe(1_000);
    counters.sweep(1_001);
    expect(counters.size).toBe(1);
    counters.sweep(1_003);
    expect(counters.size).toBe(0);
  });
});
