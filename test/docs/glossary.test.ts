import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const glossary = readFileSync(join(root, "docs", "glossary.md"), "utf8");

/** Body rows of every table: [term, our name, where, meaning]. */
const rows = glossary
  .split("\n")
  .filter((line) => line.startsWith("| ") && !line.startsWith("| term |"))
  .map((line) => line.slice(2, -2).split(" | "));

/** A `where` path: relative to packages/core/src unless it names another package. */
const resolvePath = (path: string) =>
  path.startsWith("packages/") ? join(root, path) : join(root, "packages", "core", "src", path);

describe("docs/glossary.md", () => {
  it("has four cells in every row", () => {
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) expect(row, row.join(" | ")).toHaveLength(4);
  });

  it.each(rows.map((row) => [row[0]!, row[2]!] as const))(
    "%s: every path it names exists",
    (_term, where) => {
      if (where === "not built yet") return;
      const paths = [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      expect(paths.length, `no path in "${where}"`).toBeGreaterThan(0);
      for (const path of paths) expect(existsSync(resolvePath(path)), path).toBe(true);
    },
  );

  it("is linked from README.md and docs/architecture.md", () => {
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("(docs/glossary.md)");
    expect(readFileSync(join(root, "docs", "architecture.md"), "utf8")).toContain("(glossary.md)");
  });
});
