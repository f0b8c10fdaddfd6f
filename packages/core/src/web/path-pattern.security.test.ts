import { describe, expect, it } from "vitest";
import { isPlatformError, type PlatformError } from "../kernel/platform-error.js";
import { compilePathPattern, type PathPattern, splitPath } from "./path-pattern.js";
import { antMatcher } from "./request-matcher.js";

/** A policy-target pattern (the form that also takes partial-segment wildcards). */
const compile = (pattern: string): PathPattern => compilePathPattern(pattern, "policy");

/** The decoded variables of a matching path, or undefined. */
const extract = (pattern: PathPattern, path: string): Record<string, string> | undefined =>
  pattern.match(splitPath(path)) ?? undefined;

/** One hostile segment is 10,000 characters; each pattern gets this long at most, far below the test timeout. */
const HOSTILE_LENGTH = 10_000;
// A backtracking engine needs seconds to hours here; RE2 needs milliseconds (more on a loaded machine).
const BUDGET_MS = 1_000;

/** The PlatformError compiling `pattern` throws (fails the test when it compiles). */
function refusalOf(pattern: string): PlatformError {
  try {
    compile(pattern);
  } catch (error) {
    if (isPlatformError(error)) return error;
    throw error;
  }
  throw new Error(`'${pattern}' compiled`);
}

const hostile = (unit: string, tail = "!"): string =>
  unit.repeat(Math.ceil(HOSTILE_LENGTH / unit.length)).slice(0, HOSTILE_LENGTH - tail.length) + tail;

/**
 * ReDoS families as `{x:regex}` variables: [regex, a segment it must match, a hostile segment,
 * expected outcome]. On a backtracking engine each hostile segment takes exponential (or high
 * polynomial) time; RE2 answers in time linear in the segment, and what RE2 cannot run is refused.
 */
const FAMILIES: ReadonlyArray<readonly [string, string, string, "runs" | "refused"]> = [
  ["(a+)+", "aaa", hostile("a"), "runs"],
  ["(a|a)*", "aaa", hostile("a"), "runs"],
  ["(a|ab)*c", "ababc", hostile("ab"), "runs"],
  ["(\\w+\\s?)+$", "ab cd", hostile("a"), "runs"],
  ["(a*)*b", "aab", hostile("a"), "runs"],
  ["([a-zA-Z]+)*\\d", "abc1", hostile("a"), "runs"],
  ["(a|aa)+$", "aaaa", hostile("a"), "runs"],
  ["(.*a){12}", "a".repeat(12), hostile("a", "b"), "runs"],
  ["(a?){25}a{25}", "a".repeat(25), hostile("a"), "runs"],
  ["((a+)+)+x", "aax", hostile("a"), "runs"],
  ["(\\d+|\\d+\\.\\d+)*%", "1.2%", hostile("1"), "runs"],
  // nested groups with backreferences, lookaround: not RE2, refused at compile (or save) time
  ["((a+)+)\\2", "aaaa", hostile("a"), "refused"],
  ["(\\w+)(\\s\\1)+$", "ab ab", hostile("a"), "refused"],
  ["(?<w>a+)+\\k<w>", "aa", hostile("a"), "refused"],
  ["(?=(a+))+b", "ab", hostile("a"), "refused"],
  ["(?!b)(a+)+c", "ac", hostile("a"), "refused"],
  ["(?<=a)(a+)+c", "aac", hostile("a"), "refused"],
  // linear, but with a huge constant: refused for its program size
  [".{0,99}".repeat(8), "a", hostile("a"), "refused"],
];

describe("{var:regex} cannot stall the matcher (ReDoS families, 10,000-character hostile segments)", () => {
  it.each(FAMILIES)("%s", (regex, sample, segment, outcome) => {
    const pattern = `/redos/{x:${regex}}`;
    if (outcome === "refused") {
      const started = performance.now();
      expect(refusalOf(pattern).code).toBe("CONFIGURATION_INVALID");
      expect(performance.now() - started).toBeLessThan(BUDGET_MS);
      return;
    }
    const compiled = compile(pattern);
    // The regex works: a benign segment matches and is captured (decoded: a raw `%` does not decode).
    expect(compiled.matches(`/redos/${sample}`)).toBe(true);
    if (!sample.includes("%")) expect(extract(compiled, `/redos/${sample}`)).toEqual({ x: sample });
    const path = `/redos/${segment}`;
    let started = performance.now();
    expect(compiled.matches(path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
    started = performance.now();
    expect(extract(compiled, path)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  });

  it("a variable next to literals and another variable stays linear", () => {
    const compiled = compile("/r/v{major:(\\d+)+}.{minor:(\\d*)*}-{tag}");
    expect(compiled.matches("/r/v12.3-rc")).toBe(true);
    const started = performance.now();
    expect(compiled.matches(`/r/v${"1".repeat(5_000)}.${"2".repeat(4_990)}x`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  });
});

describe("a refused {var:regex} says where and why", () => {
  const refusal = (pattern: string): Record<string, unknown> => {
    const error = refusalOf(pattern);
    return { code: error.code, message: error.message, ...error.details };
  };

  it.each([
    // [pattern, the text the position must point at, part of the reason]
    ["/redos/{x:(a+)+\\1}", "\\1", "backreference '\\1' is not supported"],
    ["/redos/{x:(?<w>a)\\k<w>}", "\\k", "named backreference"],
    ["/redos/{x:a(?=b)}", "(?=", "lookahead '(?=' is not supported"],
    ["/redos/{x:a(?!b)}", "(?!", "lookahead '(?!' is not supported"],
    ["/redos/{x:(?<=a)b}", "(?<=", "lookbehind '(?<=' is not supported"],
    ["/redos/{x:(?<!a)b}", "(?<!", "lookbehind '(?<!' is not supported"],
    ["/redos/{x:[\\1]}", "\\1", "backreference"],
    ["/redos/{x:\\u0041}", "\\u", "write \\x{hhhh}"],
    ["/redos/{x:a**}", "**", "invalid nested repetition operator: '**'"],
    ["/redos/{x:[z-a]}", "z-a", "invalid character class range: 'z-a'"],
    ["/redos/{x:a{2,1}}", "{2,1}", "invalid repeat count: '{2,1}'"],
    ["/redos/{x:a{1001}}", "{1001}", "more than 500"],
    ["/redos/{x:a/b}", "/b", "containing '/'"],
    ["/redos/{x:}", "}", "empty regex"],
    ["/redos/{x:[a-z]{1,999}x}", "{1,999}", "instructions, more than 500"],
    ["/redos/{x:(?:ab{1,9}){1,60}}", "{1,60}", "more than 500"],
    ["/redos/{id}/{x:\\d+}-{y:(\\w+\\s?)+(?=a)}", "(?=", "lookahead"],
  ])("%s: at '%s', %s", (pattern, at, reason) => {
    const position = pattern.indexOf(at);
    const refused = refusal(pattern);
    expect(refused).toMatchObject({ code: "CONFIGURATION_INVALID", pattern, position });
    expect(refused.reason).toContain(reason);
    expect(refused.message).toContain(`at index ${position}: `);
  });

  it("refuses the same regexes in patterns given in code (chain and rule matchers) at build time", () => {
    let thrown: unknown;
    try {
      antMatcher("/api/{v:a(?!b)}", "GET");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: "CONFIGURATION_INVALID",
      details: { pattern: "/api/{v:a(?!b)}", position: 9, reason: expect.stringContaining("lookahead") },
    });
  });

  it("places a segment's combination problem at its first regex", () => {
    const pattern = "/r/{a:(?P<g>x)}{b:(?P<g>y)}";
    expect(refusal(pattern)).toMatchObject({ position: pattern.indexOf("(?P") });
  });

  it("refuses an oversized program before RE2 spends long compiling it", () => {
    const started = performance.now();
    const refused = refusal(`/r/{x:${".{0,999}".repeat(120)}}`);
    expect(performance.now() - started).toBeLessThan(100);
    expect(refused).toMatchObject({ position: "/r/{x:.".length });
    expect(refused.reason).toContain("(at '{0,999}')");
  });
});
