import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { ModelCallCaps } from "./model-call-caps.js";

const caps = (o: Partial<{ perMinute: number; perDay: number; perUser: number; reserve: number }> = {}) => {
  const clock = new ManualClock(0);
  const c = new ModelCallCaps({
    clock,
    perMinute: o.perMinute ?? 100,
    perDay: o.perDay ?? 1_000,
    perUserPerMinute: o.perUser ?? 100,
    highSeverityReserve: o.reserve ?? 0,
  });
  return { c, clock };
};

describe("ModelCallCaps", () => {
  it("counts a call at admission, so two decisions racing for the last call cannot both get it", () => {
    const { c } = caps({ perMinute: 1 });
    expect(c.admit("a", "routine")).toBe("ok");
    expect(c.admit("b", "high")).toBe("rate-cap");
    expect(c.counts()).toEqual({ minute: 1, day: 1 });
  });

  it("settles the calls beyond the first when the decision ends", () => {
    const { c } = caps();
    c.admit("a", "routine");
    c.settle("a", 3);
    c.settle("a", 1);
    expect(c.counts()).toEqual({ minute: 3, day: 3 });
  });

  it("stops routine events at the cap less the reserve, high-severity ones at the cap", () => {
    const { c } = caps({ perMinute: 4, reserve: 0.5 });
    expect([c.admit("a", "routine"), c.admit("b", "routine"), c.admit("c", "routine")]).toEqual([
      "ok",
      "ok",
      "rate-cap",
    ]);
    expect([c.admit("c", "high"), c.admit("d", "high"), c.admit("e", "high")]).toEqual([
      "ok",
      "ok",
      "rate-cap",
    ]);
  });

  it("applies the reserve to the daily cost cap too", () => {
    const { c, clock } = caps({ perDay: 2, reserve: 0.5 });
    expect(c.admit("a", "routine")).toBe("ok");
    clock.advance(60_000);
    expect(c.admit("b", "routine")).toBe("cost-cap");
    expect(c.admit("b", "high")).toBe("ok");
    expect(c.admit("c", "high")).toBe("cost-cap");
    clock.advance(86_400_000);
    expect(c.admit("c", "routine")).toBe("ok");
  });

  it("holds one user's events, of either severity, to the per-user cap, for this minute only", () => {
    const { c, clock } = caps({ perUser: 2 });
    c.admit("a", "routine");
    c.settle("a", 2);
    expect(c.admit("a", "routine")).toBe("user-cap");
    expect(c.admit("a", "high")).toBe("user-cap"); // one account cannot spend the reserve
    expect(c.admit("b", "routine")).toBe("ok");
    clock.advance(60_000);
    expect(c.admit("a", "routine")).toBe("ok");
  });
});
