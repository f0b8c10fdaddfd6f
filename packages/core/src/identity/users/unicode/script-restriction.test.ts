import { describe, expect, it } from "vitest";
import { mixedScriptProblem } from "./script-restriction.js";

describe("mixedScriptProblem (UTS #39 Highly Restrictive)", () => {
  it("accepts one script, with digits and ASCII punctuation", () => {
    for (const name of ["alice-1", "ђорђе", "αλέξης", "שלום1", "김철수", "山田"]) {
      expect(mixedScriptProblem(name), name).toBeUndefined();
    }
  });

  it("accepts Japanese (Han, Hiragana, Katakana, with Latin), Chinese with Bopomofo and Korean with Han", () => {
    for (const name of ["山田たろうタロウ", "yamadaたろう", "ーさん", "北京ㄅㄆ", "韓國한국", "tanaka山田"]) {
      expect(mixedScriptProblem(name), name).toBeUndefined();
    }
  });

  it("refuses Latin with Cyrillic or Greek, and any two scripts outside the three sets, naming them", () => {
    const problem = mixedScriptProblem("\u0430dmin");
    expect(problem?.rule).toBe("mixed-script");
    expect(problem?.message).toContain("Cyrillic, Latin");
    for (const name of ["pαypal", "шalom", "日本שלום", "한국ひらがな"]) {
      expect(mixedScriptProblem(name)?.rule, name).toBe("mixed-script");
    }
  });
});
