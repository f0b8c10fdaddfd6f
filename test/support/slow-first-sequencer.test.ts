import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOW_FIRST, slowRank } from "./slow-first-sequencer.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the slow-first order of test files", () => {
  it("names only test files that exist (a renamed file would silently lose its place)", () => {
    expect(SLOW_FIRST.filter((f) => !f.endsWith(".test.ts") || !existsSync(join(ROOT, f)))).toEqual([]);
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });

  it("ranks a listed file by its place and every other file after them", () => {
    expect(slowRank(ROOT.replace(/\/$/, ""), join(ROOT, SLOW_FIRST[0] ?? ""))).toBe(0);
    expect(slowRank(ROOT.replace(/\/$/, ""), join(ROOT, SLOW_FIRST[1] ?? ""))).toBe(1);
    expect(slowRank(ROOT.replace(/\/$/, ""), join(ROOT, "test/docs/glossary.test.ts"))).toBe(
      SLOW_FIRST.length,
    );
  });
});
