import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  checkFunctionLengths,
  formatReport,
  MAX_FUNCTION_LINES,
  measureFunctions,
  measureSources,
  passes,
} from "./function-length.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtureRoot = join(here, "fixtures", "function-length");
const SAMPLE = "packages/core/src/sample.ts";

/** A function whose body spans exactly `lines` lines (the braces included). */
function functionOf(name: string, lines: number): string {
  const statements = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`export function ${name}(): void {`, ...statements, "}"].join("\n");
}

describe("measureSources on the fixture tree", () => {
  const { files, functions } = measureSources(fixtureRoot);

  it("measures every package's sources and scripts/, TypeScript and JavaScript; tests, contracts, test-support and fixture modules and fixtures folders are skipped", () => {
    expect(files).toEqual([
      "packages/adapters-mongo/test-support/double.ts",
      "packages/cli/bin/tool.mjs",
      SAMPLE,
      "packages/sdk-browser/src/pages/page.ts",
      "scripts/tool.ts",
    ]);
  });

  it("finds every function, method, accessor, arrow function and callback with its body length", () => {
    const found = functions.filter((fn) => fn.file === SAMPLE).map((fn) => [fn.name, fn.line, fn.lines]);
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
    const elsewhere = functions.filter((fn) => fn.file !== SAMPLE).map((fn) => [fn.file, fn.name, fn.lines]);
    expect(elsewhere).toEqual([
      ["packages/adapters-mongo/test-support/double.ts", "double", 3],
      ["packages/cli/bin/tool.mjs", "main", 3],
      ["packages/sdk-browser/src/pages/page.ts", "ready", 3],
      ["scripts/tool.ts", "tool", 3],
    ]);
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
    const report = checkFunctionLengths(functions, 1);
    expect(report.offenders.map((fn) => fn.name)).toEqual(["tooLong"]);
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

describe("checkFunctionLengths (limit 3 on the fixture)", () => {
  const { files, functions } = measureSources(fixtureRoot);
  const check = () => checkFunctionLengths(functions, files.length, 3);

  it("fails on every function over the limit, in any package", () => {
    const report = check();
    expect(report.offenders.map((fn) => fn.name)).toEqual([
      "outer",
      "outer > inner",
      "Store.add",
      "register",
    ]);
    expect(report.filesChecked).toBe(5);
    expect(report.functionsChecked).toBe(16);
    expect(passes(report)).toBe(false);
    expect(formatReport(report, 3)[0]).toBe(`OVER ${SAMPLE}:2 outer: 7 lines (limit 3); split it`);
  });
});
