import { describe, expect, it } from "vitest";
import { bidiClassOf, bidiRuleProblem } from "./bidi-rule.js";

describe("bidiRuleProblem (RFC 5893, which RFC 8265 applies to right-to-left usernames)", () => {
  it("knows the classes the rule reads", () => {
    expect([0x61, 0x5d0, 0x627, 0x661, 0x31, 0x2d, 0x2e, 0x23, 0x40, 0x5b4].map(bidiClassOf)).toEqual([
      "L",
      "R",
      "AL",
      "AN",
      "EN",
      "ES",
      "CS",
      "ET",
      "ON",
      "NSM",
    ]);
  });

  it("leaves names without right-to-left characters alone", () => {
    expect(bidiRuleProblem("1alice.")).toBeUndefined();
  });

  it("accepts right-to-left names that start and end right-to-left", () => {
    for (const name of ["שלום", "שלום1", "مرحبا٣", "\u05d1\u05bc"])
      expect(bidiRuleProblem(name), name).toBeUndefined();
  });

  it("refuses a mixed direction, a bad first or last character, and mixed digit kinds", () => {
    for (const name of ["abcשלום", "1שלום", "שלום.", "שלוםabc", "مرحبا1٣"]) {
      expect(bidiRuleProblem(name)?.rule, name).toBe("bidi");
    }
  });
});
