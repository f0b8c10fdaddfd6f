import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type Baseline,
  compareWithBaseline,
  type FunctionLength,
  formatReport,
  MAX_FUNCTION_LINES,
  measureCore,
  measureFunctions,
  passes,
  prunedBaseline,
  readBaseline,
} from "./function-length.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtureRoot = join(here, "fixtures", "function-length");
const SAMPLE = "packages/core/src/sample.ts";

/** A function whose body spans exactly `lines` lines (the braces included). */
function functionOf(name: string, lines: number): string {
  const statements = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`export function ${name}(): void {`, ...statements, "}"].join("\n");
}

describe("measureCore on the fixture tree", () => {
  const { files, functions } = measureCore(fixtureRoot);

  it("measures only source files: tests, contracts, test-support, fixture modules and fixtures folders are skipped", () => {
    expect(files).toEqual([SAMPLE]);
  });

  it("finds every function, method, accessor, arrow function and callback with its body length", () => {
    const found = functions.map((fn) => [fn.name, fn.line, fn.lines]);
    expect(found).toEqual([
      ["outer", 2, 7],
      ["outer > inner", 3, 4],
      ["Store.constructor", 13, 1],
      ["Store.add", 15, 4],
      ["Store.get count", 20, 3],
      ["Store.clear", 24, 3],
      ["double", 29, 1],
      ["overloaded", 33, 3],
      ["handlers.onOpen", 38, 3],
      ["register", 43, 10],
      ['register > on("start") callback', 45, 3],
      ['register > on("stop") callback', 48, 3],
    ]);
    expect(new Set(functions.map((fn) => fn.file))).toEqual(new Set([SAMPLE]));
  });
});

describe("measureFunctions", () => {
  it("counts 80 lines as within the limit and 81 as over it", () => {
    const text = `${functionOf("fits", MAX_FUNCTION_LINES)}\n${functionOf("tooLong", MAX_FUNCTION_LINES + 1)}\n`;
    const functions = measureFunctions("packages/core/src/x.ts", text);
    expect(functions.map((fn) => [fn.name, fn.lines])).toEqual([
      ["fits", 80],
      ["tooLong", 81],
    ]);
    const report = compareWithBaseline(functions, { entries: [] }, 1);
    expect(report.newOffenders.map((fn) => fn.name)).toEqual(["tooLong"]);
    expect(passes(report)).toBe(false);
  });

  it("numbers repeated names in source order so each keeps a distinct key", () => {
    const nested = "export function f(xs: number[]) {\n  xs.map((x) => x);\n  xs.map((x) => x + 1);\n}\n";
    expect(measureFunctions("f.ts", nested).map((fn) => fn.name)).toEqual([
      "f",
      "f > xs.map callback",
      "f > xs.map callback #2",
    ]);
  });
});

describe("compareWithBaseline (limit 3 on the fixture)", () => {
  const { files, functions } = measureCore(fixtureRoot);
  const entry = (name: string, lines: number) => ({ file: SAMPLE, function: name, lines });
  const compare = (baseline: Baseline) => compareWithBaseline(functions, baseline, files.length, 3);

  it("fails on every function over the limit that the baseline does not list", () => {
    const report = compare({ entries: [] });
    expect(report.newOffenders.map((fn) => fn.name)).toEqual([
      "outer",
      "outer > inner",
      "Store.add",
      "register",
    ]);
    expect(passes(report)).toBe(false);
    expect(formatReport(report, 3)[0]).toBe(`NEW  ${SAMPLE}:2 outer: 7 lines (limit 3); split it`);
  });

  it("passes when the baseline lists each offender at its current length", () => {
    const baseline = {
      entries: [entry("outer", 7), entry("outer > inner", 4), entry("Store.add", 4), entry("register", 10)],
    };
    const report = compare(baseline);
    expect(passes(report)).toBe(true);
    expect(formatReport(report, 3)).toEqual([]);
  });

  it("fails when a listed function grew, and reminds when one shrank, fits now or is gone", () => {
    const baseline = {
      entries: [
        entry("outer", 6), // grew to 7
        entry("register", 12), // shrank to 10, still over
        entry("outer > inner", 4),
        entry("Store.add", 4),
        entry("double", 5), // 1 line now: within the limit
        entry("removed", 90), // no longer exists
      ],
    };
    const report = compare(baseline);
    expect(passes(report)).toBe(false);
    expect(report.newOffenders).toEqual([]);
    expect(report.grown.map((g) => [g.entry.function, g.now.lines])).toEqual([["outer", 7]]);
    expect(report.shrunk.map((s) => [s.entry.function, s.now.lines])).toEqual([["register", 10]]);
    expect(report.resolved.map((r) => [r.entry.function, r.now?.lines])).toEqual([
      ["double", 1],
      ["removed", undefined],
    ]);
    expect(formatReport(report, 3)).toEqual([
      `GREW ${SAMPLE}:2 outer: 7 lines, baseline 6; shorten it`,
      `note ${SAMPLE} register: 10 lines, baseline 12; lower the baseline (--prune)`,
      `note ${SAMPLE} double: 1 lines, within the limit; remove it from the baseline (--prune)`,
      `note ${SAMPLE} removed: no longer found; remove it from the baseline (--prune)`,
    ]);
  });

  it("prunes only downwards: resolved entries leave, shrunk ones take their new length", () => {
    const baseline = {
      description: "kept",
      entries: [entry("register", 12), entry("double", 5), entry("outer", 7)],
    };
    const pruned = prunedBaseline(compare(baseline), baseline);
    expect(pruned).toEqual({ description: "kept", entries: [entry("register", 10), entry("outer", 7)] });
  });

  it("matches entries by file as well as name", () => {
    const other = { file: "packages/core/src/other.ts", function: "outer", lines: 7 };
    const report = compare({ entries: [other] });
    expect(report.newOffenders.map((fn: FunctionLength) => fn.name)).toContain("outer");
    expect(report.resolved.map((r) => r.entry)).toEqual([other]);
  });
});

describe("the repository's baseline", () => {
  it("is well formed and lists each function once", () => {
    const baseline = readBaseline(join(here, "function-length-baseline.json"));
    const keys = baseline.entries.map((e) => `${e.file} ${e.function}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of baseline.entries) expect(e.lines).toBeGreaterThan(MAX_FUNCTION_LINES);
  });
});
