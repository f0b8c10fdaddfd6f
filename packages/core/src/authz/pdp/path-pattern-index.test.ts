import { describe, expect, it } from "vitest";
import { compilePathPattern, type PathPattern } from "../../web/path-pattern.js";
import { PathPatternIndex } from "./path-pattern-index.js";

/** A seeded PRNG so a failure reproduces. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = ["api", "v1", "orders", "users", "admin", "x", "", "a.json", "42"];
const PATTERN_SEGMENTS = [...SEGMENTS, "*", "**", "{id}", "{id:\\d+}", "*.json", "a?", "or*", "{id}.json"];
const METHODS = ["GET", "POST", "ANY"];

describe("PathPatternIndex", () => {
  it("finds exactly what a linear scan of the compiled patterns finds, in rank order (5,000 random cases)", () => {
    const random = prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    for (let round = 0; round < 50; round++) {
      const index = new PathPatternIndex<number>();
      const targets: { pattern: PathPattern; method: string; rank: number }[] = [];
      for (let i = 0; i < 40; i++) {
        const depth = 1 + Math.floor(random() * 4);
        let k = 0;
        const pattern = `/${Array.from({ length: depth }, () => pick(PATTERN_SEGMENTS)).join("/")}`.replace(
          /\{id/g,
          () => `{v${k++}`,
        );
        const method = pick(METHODS);
        const rank = Math.floor(random() * 20); // ties: several targets of one rank
        index.add(pattern, method, rank, i);
        targets.push({ pattern: compilePathPattern(pattern, "policy"), method, rank });
      }
      for (let q = 0; q < 100; q++) {
        const depth = Math.floor(random() * 5);
        const path = `/${Array.from({ length: depth }, () => pick(SEGMENTS)).join("/")}`;
        const method = pick(["GET", "POST"]);
        const expected = targets
          .map((t, i) => ({ ...t, i }))
          .filter((t) => (t.method === "ANY" || t.method === method) && t.pattern.matches(path))
          .sort((a, b) => a.rank - b.rank);
        const found = index.matching(path, method).map((t) => t.value);
        expect(found.sort()).toEqual(expected.map((t) => t.i).sort());
        const ranks = index.matching(path, method).map((t) => t.rank);
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        expect(index.first(path, method)?.rank).toBe(expected[0]?.rank);
      }
    }
  });

  it("matches `**` with zero segments and literal segments exactly (case-sensitive)", () => {
    const index = new PathPatternIndex<string>();
    index.add("/api/**", "ANY", 1, "deep");
    index.add("/api/Orders", "GET", 0, "literal");
    expect(index.first("/api", "GET")?.value).toBe("deep");
    expect(index.first("/api/Orders", "GET")?.value).toBe("literal");
    expect(index.first("/api/orders", "GET")?.value).toBe("deep");
    expect(index.first("/other", "GET")).toBeUndefined();
    expect(index.first("relative", "GET")).toBeUndefined();
  });

  it("respects methods: ANY matches all, others only their own", () => {
    const index = new PathPatternIndex<string>();
    index.add("/a", "DELETE", 0, "delete");
    index.add("/a", "ANY", 1, "any");
    expect(index.first("/a", "DELETE")?.value).toBe("delete");
    expect(index.first("/a", "GET")?.value).toBe("any");
  });

  it("sees targets added after a lookup (the flat layout is rebuilt), and carries hot fields", () => {
    const index = new PathPatternIndex<string, { weight: number }>();
    index.add("/a/{id}", "ANY", 1, "later", { weight: 1 });
    expect(index.first("/a/7", "GET")?.value).toBe("later");
    index.add("/a/7", "GET", 0, "earlier", { weight: 2 });
    expect(index.first("/a/7", "GET")).toMatchObject({ value: "earlier", weight: 2 });
    expect(index.matching("/a/7", "GET").map((t) => t.value)).toEqual(["earlier", "later"]);
  });

  it("looks up wide literal fan-outs (more children than are scanned in place)", () => {
    const index = new PathPatternIndex<number>();
    for (let i = 0; i < 50; i++) index.add(`/api/res${i}/{id}`, "ANY", i, i);
    for (let i = 0; i < 50; i += 7) expect(index.first(`/api/res${i}/x`, "GET")?.value).toBe(i);
    expect(index.first("/api/res50/x", "GET")).toBeUndefined();
  });

  it("lists candidates that could cover a pattern", () => {
    const index = new PathPatternIndex<string>();
    index.add("/admin/**", "ANY", 0, "admin");
    index.add("/api/{id}", "ANY", 1, "var");
    index.add("/api/x", "ANY", 2, "lit");
    expect(index.candidates("/admin/users/**").map((t) => t.value)).toEqual(["admin"]);
    expect(index.candidates("/api/{id}").map((t) => t.value)).toEqual(["var"]);
  });
});
