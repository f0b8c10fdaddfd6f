import { describe, expect, it } from "vitest";
import { validRiskAssessment } from "./valid-risk-assessment.js";

describe("validRiskAssessment", () => {
  it("accepts a score in [0, 1] and keeps well-formed signals", () => {
    expect(
      validRiskAssessment({ score: 0, signals: [{ name: "a", weight: 0.1, detail: "d" }], analyzer: "m" }),
    ).toEqual({ score: 0, signals: [{ name: "a", weight: 0.1, detail: "d" }], analyzer: "m" });
    expect(validRiskAssessment({ score: 1, signals: "nope" })).toEqual({
      score: 1,
      signals: [],
      analyzer: "unknown",
    });
  });

  it("refuses anything but a finite score in [0, 1]", () => {
    for (const answer of [null, 0.5, "x", {}, { score: Number.NaN }, { score: -1e-9 }, { score: 1.0001 }]) {
      expect(validRiskAssessment(answer), JSON.stringify(answer)).toBeUndefined();
    }
  });

  it("drops malformed signals, cuts text and keeps at most 32", () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `s${i}`, weight: 0.01 }));
    expect(validRiskAssessment({ score: 0.5, signals: many })?.signals).toHaveLength(32);
    const odd = validRiskAssessment({
      score: 0.5,
      analyzer: "a".repeat(300),
      signals: [
        null,
        { name: "", weight: 1 },
        { name: "x", weight: "1" },
        { name: "d".repeat(300), weight: 1, detail: 3 },
      ],
    });
    expect(odd?.analyzer).toHaveLength(200);
    expect(odd?.signals).toEqual([{ name: "d".repeat(200), weight: 1 }]);
    expect(Object.isFrozen(odd?.signals)).toBe(true);
  });
});
