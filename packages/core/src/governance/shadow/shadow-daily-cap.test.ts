import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { ShadowDailyCap } from "./shadow-daily-cap.js";

describe("ShadowDailyCap", () => {
  it("admits the cap's runs per UTC day and starts again at 00:00 UTC", () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 59, 58));
    const cap = new ShadowDailyCap({ clock, cap: 3 });
    const four = () => ["a", "b", "c", "d"].map((r) => cap.admit(r));
    expect(four()).toEqual(["admitted", "admitted", "admitted", "cap-spent"]);
    clock.advance(1_999); // 23:59:59.999: still the same UTC day
    expect(cap.admit("e")).toBe("cap-spent");
    expect(cap.usedToday()).toBe(3);
    clock.advance(1); // 00:00:00.000 UTC
    expect(cap.usedToday()).toBe(0);
    expect(four()).toEqual(["admitted", "admitted", "admitted", "cap-spent"]);
  });

  it("admits nothing with a cap of 0", () => {
    const cap = new ShadowDailyCap({ clock: new ManualClock(), cap: 0, requesterSharePercent: 100 });
    expect(cap.admit("a")).toBe("cap-spent");
  });

  it("lets one requester take only its share of the day's cap, and gives it back at 00:00 UTC", () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 0));
    const cap = new ShadowDailyCap({ clock, cap: 100, requesterSharePercent: 10 });
    const runs = (requester: string, n: number) =>
      Array.from({ length: n }, () => cap.admit(requester)).filter((a) => a === "admitted").length;
    expect(runs("u:mallory", 50)).toBe(10);
    expect(cap.admit("u:mallory")).toBe("requester-share-spent");
    // The others still get theirs: the cap is not spent by one.
    expect(runs("u:alice", 10)).toBe(10);
    expect(cap.usedToday()).toBe(20);
    clock.advance(3_600_000); // 00:00 UTC
    expect(runs("u:mallory", 50)).toBe(10);
  });

  it("gives each requester at least one run, and the day's cap still bounds them all", () => {
    const cap = new ShadowDailyCap({ clock: new ManualClock(), cap: 5, requesterSharePercent: 1 });
    const answers = ["a", "a", "b", "c", "d", "e", "f"].map((r) => cap.admit(r));
    expect(answers).toEqual([
      "admitted",
      "requester-share-spent",
      "admitted",
      "admitted",
      "admitted",
      "admitted",
      "cap-spent",
    ]);
  });

  it("with a share of 100 one requester may take the whole cap", () => {
    const cap = new ShadowDailyCap({ clock: new ManualClock(), cap: 3, requesterSharePercent: 100 });
    expect(["a", "a", "a", "a"].map((r) => cap.admit(r))).toEqual([
      "admitted",
      "admitted",
      "admitted",
      "cap-spent",
    ]);
  });
});
