import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { ShadowDailyCap } from "./shadow-daily-cap.js";

describe("ShadowDailyCap", () => {
  it("admits the cap's runs per UTC day and starts again at 00:00 UTC", () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 59, 58));
    const cap = new ShadowDailyCap({ clock, cap: 3 });
    expect([cap.admit(), cap.admit(), cap.admit(), cap.admit()]).toEqual([true, true, true, false]);
    clock.advance(1_999); // 23:59:59.999: still the same UTC day
    expect(cap.admit()).toBe(false);
    expect(cap.usedToday()).toBe(3);
    clock.advance(1); // 00:00:00.000 UTC
    expect(cap.usedToday()).toBe(0);
    expect([cap.admit(), cap.admit(), cap.admit(), cap.admit()]).toEqual([true, true, true, false]);
  });

  it("admits nothing with a cap of 0", () => {
    const cap = new ShadowDailyCap({ clock: new ManualClock(), cap: 0 });
    expect(cap.admit()).toBe(false);
  });
});
