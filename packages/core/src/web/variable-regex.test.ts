import { describe, expect, it } from "vitest";
import { compilePathPattern, type PathPattern, splitPath } from "./path-pattern.js";
import {
  checkVariableRegex,
  compileSegmentRegex,
  MAX_REGEX_PROGRAM_SIZE,
  MAX_REGEX_SEGMENT_LENGTH,
} from "./variable-regex.js";

/** A policy-target pattern (the form that also takes partial-segment wildcards). */
const compile = (pattern: string): PathPattern => compilePathPattern(pattern, "policy");

/** The decoded variables of a matching path, or undefined. */
const extract = (pattern: PathPattern, path: string): Record<string, string> | undefined =>
  pattern.match(splitPath(path)) ?? undefined;

describe("checkVariableRegex: RE2 syntax", () => {
  it.each([
    ["\\d+", 0],
    ["[a-z0-9-]+", 0],
    ["[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", 0],
    ["[\\w.-]{1,200}", 0],
    ["(a)(b(c))", 3],
    ["(?:ab)+", 0],
    ["(?P<year>\\d{4})-(?<month>\\d{2})", 2],
    ["(?i)abc", 0],
    ["(?i:abc)d", 0],
    ["\\pL+", 0],
    ["\\p{Greek}+", 0],
    ["[[:alpha:]]+", 0],
    ["\\x{41}\\x42", 0],
    ["\\Qa.b\\E", 0],
    ["[]a]+", 0],
    ["\\ba\\b", 0],
    ["a{,3}", 0], // not a repetition in RE2: the literal text `a{,3}`
  ])("accepts %s (%i groups)", (source, groups) => {
    expect(checkVariableRegex(source)).toEqual({ groups });
  });

  it.each([
    ["(a)\\1", 3],
    ["[\\2]", 1],
    ["(?<n>a)\\k<n>", 7],
    ["a(?=b)", 1],
    ["(?<!a)b", 0],
    ["\\u00e9", 0],
    ["a/b", 1],
    ["", 0],
    ["(a", 0],
    ["[a", 0],
    ["x**", 1],
  ])("refuses %s at index %i", (source, index) => {
    const checked = checkVariableRegex(source);
    expect(checked).toMatchObject({ index });
    expect("reason" in checked && checked.reason.length > 0).toBe(true);
  });

  it("estimates counted repetitions so that nothing over the cap reaches the compiler", () => {
    for (const source of [
      "a{501}",
      "(?:ab){251}",
      "(?:(?:ab){30}){30}",
      "[a-z]{1,300}",
      "x".repeat(MAX_REGEX_PROGRAM_SIZE + 1),
    ]) {
      expect(checkVariableRegex(source), source).toMatchObject({
        reason: expect.stringContaining("would compile"),
      });
    }
  });

  it("takes RE2's exact program size as the last word", () => {
    // The estimate counts 499 literals; the compiled program adds its start and match instructions.
    const checked = checkVariableRegex("x".repeat(MAX_REGEX_PROGRAM_SIZE - 1));
    expect(checked).toMatchObject({
      index: 0,
      reason: expect.stringMatching(/^the regex compiles to 501 instructions/),
    });
  });
});

describe("compileSegmentRegex", () => {
  it("matches the whole text only", () => {
    const re = compileSegmentRegex("v((?:\\d+))\\.([^/]+)");
    if ("reason" in re) throw new Error(re.reason);
    expect(re.test("v12.x")).toBe(true);
    expect(re.test("xv12.x")).toBe(false);
    expect(re.test("v12")).toBe(false);
  });

  it("never matches a segment longer than MAX_REGEX_SEGMENT_LENGTH (bounds the NFA's work per test)", () => {
    // A DFA-defeating program (2^16 states) on a long segment cost milliseconds per test; fifty such
    // targets in one policy made every anonymous request cost seconds (outside review, wave 2).
    const re = compileSegmentRegex("[ab]*a[ab]{15}");
    if ("reason" in re) throw new Error(re.reason);
    const fits = `${"b".repeat(MAX_REGEX_SEGMENT_LENGTH - 16)}a${"b".repeat(15)}`;
    expect(fits).toHaveLength(MAX_REGEX_SEGMENT_LENGTH);
    expect(re.test(fits)).toBe(true);
    expect(re.test(`b${fits}`)).toBe(false);
    expect(compile("/{v:[ab]*a[ab]{15}}").matches(`/b${fits}`)).toBe(false);
  });

  it("refuses two variables naming the same group", () => {
    expect(compileSegmentRegex("((?:(?P<g>a)))((?:(?P<g>b)))")).toMatchObject({
      reason: expect.stringContaining("duplicate capture group name"),
    });
  });
});

describe("{var:regex} under RE2 in path patterns", () => {
  it.each([
    ["/y/{year:(?P<y>\\d{4})}-{rest}", "/y/2024-06", {}], // a partial segment: judged only
    ["/c/{code:(?i)ab}x", "/c/ABx", {}],
    // a flag set inside one variable does not leak into the literal after it
    ["/c/{code:(?i)ab}x", "/c/ABX", undefined],
    ["/w/{word:\\pL+}", "/w/abc", { word: "abc" }],
    ["/q/{v:\\Qa.b\\E}", "/q/a.b", { v: "a.b" }],
    ["/q/{v:\\Qa.b\\E}", "/q/axb", undefined],
    ["/o/{v:(x)?(y)}{w:z}", "/o/yz", {}],
    ["/o/{v:(x)?(y)}", "/o/xy", { v: "xy" }],
  ])("%s against %s", (pattern, path, expected) => {
    expect(extract(compile(pattern), path)).toEqual(expected);
  });
});
