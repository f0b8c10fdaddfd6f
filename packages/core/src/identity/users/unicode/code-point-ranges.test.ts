import { describe, expect, it } from "vitest";
import { CodePointRanges } from "./code-point-ranges.js";

describe("CodePointRanges", () => {
  it("finds code points in single values and inclusive ranges, and nothing between them", () => {
    const ranges = new CodePointRanges("41-43 61 10000-10ffff");
    expect([0x41, 0x43, 0x61, 0x10000, 0x10ffff].map((cp) => ranges.has(cp))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([0x40, 0x44, 0x60, 0x62, 0xffff].map((cp) => ranges.has(cp))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(new CodePointRanges("").has(0x41)).toBe(false);
  });
});
