import { describe, expect, it } from "vitest";
import { countSystemTokens, countTokens } from "./token-counter.js";

describe("countSystemTokens", () => {
  it("answers what countTokens answers, for a text seen before and after many others", () => {
    const system = "You are the security analyst. Answer in JSON with action, riskScore and reasons.";
    const expected = countTokens(system);
    expect(countSystemTokens(system)).toBe(expected);
    for (let i = 0; i < 100; i++)
      expect(countSystemTokens(`system prompt ${i}`)).toBe(countTokens(`system prompt ${i}`));
    expect(countSystemTokens(system)).toBe(expected);
    expect(countSystemTokens("")).toBe(0);
  });
});
