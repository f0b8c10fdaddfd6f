import { describe, expect, it } from "vitest";
import { nearestRankPercentile } from "./evaluation-summary.js";
import { wilsonLowerBound } from "./wilson-bound.js";

describe("wilsonLowerBound (95 %)", () => {
  // Reference values: the Wilson score interval as statsmodels' proportion_confint(method="wilson") gives it.
  it.each([
    [8, 10, 0.490162],
    [10, 10, 0.722467],
    [30, 30, 0.886487],
    [0, 10, 0],
    [50, 100, 0.403832],
  ])("%i of %i → %f", (passed, trials, expected) => {
    expect(wilsonLowerBound(passed, trials)).toBeCloseTo(expected, 5);
  });

  it("is 0 without trials and never above the pass rate", () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    for (const [x, n] of [
      [1, 3],
      [7, 9],
      [99, 100],
    ] as const)
      expect(wilsonLowerBound(x, n)).toBeLessThan(x / n);
  });
});

describe("nearestRankPercentile", () => {
  it("takes the value at rank ceil(p·n)", () => {
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(nearestRankPercentile(values, 95)).toBe(19);
    expect(nearestRankPercentile([5], 95)).toBe(5);
    expect(nearestRankPercentile([], 95)).toBe(0);
  });
});
