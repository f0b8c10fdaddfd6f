import { describe, expect, it } from "vitest";
import { identifierClassProblem } from "./precis-identifier-class.js";

const ruleOf = (s: string) => identifierClassProblem(s)?.rule;

describe("identifierClassProblem (RFC 8264 IdentifierClass, as RFC 8265 usernames use it)", () => {
  it("accepts letters, digits, combining marks and printable ASCII of any script", () => {
    for (const name of [
      "alice",
      "o'brien-smith",
      "juliet@example.com",
      "ђорђе",
      "山田たろう",
      "タロウ",
      "कार्य",
      "ß",
    ]) {
      expect(identifierClassProblem(name), name).toBeUndefined();
    }
  });

  it("refuses every default-ignorable code point, ZWJ and ZWNJ included, naming it", () => {
    for (const cp of [0x34f, 0x3164, 0x1160, 0xfe00, 0xfe0f, 0x200b, 0x200c, 0x200d, 0xad, 0x2060, 0xe0001]) {
      const problem = identifierClassProblem(`user${String.fromCodePoint(cp)}`);
      expect(problem?.rule, cp.toString(16)).toBe("default-ignorable");
      expect(problem?.message).toContain(`U+${cp.toString(16).toUpperCase().padStart(4, "0")}`);
    }
  });

  it("refuses spaces, symbols, punctuation beyond ASCII, controls and compatibility characters", () => {
    for (const s of [
      "john smith",
      "user\u2800",
      "a\u00a0b",
      "a\u2019b",
      "☃",
      "😀",
      "a\u0007",
      "ﬁ",
      "Ⅻ",
      "\u01c5",
    ]) {
      expect(ruleOf(s), JSON.stringify(s)).toBe("identifier-class");
    }
  });

  it("refuses unassigned code points and those Unicode 13.0 (the confusables data) had not assigned", () => {
    expect(ruleOf("a\u0378")).toBe("unassigned");
    expect(ruleOf("a\u{1e030}")).toBe("unassigned"); // Cyrillic modifier letters, Unicode 15.0
    expect(ruleOf("a\u{1df00}")).toBe("unassigned"); // Latin Extended-G, Unicode 14.0
  });

  it("refuses phonetic letters that pass for Latin ones (small capitals such as U+1D00 in ᴀdmin)", () => {
    for (const name of ["ᴀdmin", "adᴍin", "useʀ".replace("ʀ", "\u1d19"), "\ua730oo"]) {
      expect(ruleOf(name), name).toBe("identifier-class");
    }
  });

  it("applies the RFC 5892 exceptions and contextual rules", () => {
    expect(ruleOf("ab\u0640c")).toBe("identifier-class"); // ARABIC TATWEEL: DISALLOWED
    expect(identifierClassProblem("l\u00b7l")).toBeUndefined(); // MIDDLE DOT between two l
    expect(ruleOf("a\u00b7b")).toBe("identifier-class");
    expect(identifierClassProblem("たなか・ゆき")).toBeUndefined(); // KATAKANA MIDDLE DOT beside kana
    expect(ruleOf("ab・cd")).toBe("identifier-class");
    expect(identifierClassProblem("\u05d0\u05f3")).toBeUndefined(); // GERESH after a Hebrew letter
    expect(ruleOf("a\u05f3")).toBe("identifier-class");
    expect(ruleOf("\u0661\u06f1")).toBe("identifier-class"); // Arabic-Indic with extended digits
    expect(ruleOf("\u1100\u1161")).toBe("identifier-class"); // conjoining (old) Hangul jamo
  });
});
