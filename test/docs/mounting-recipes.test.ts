import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const doc = readFileSync(join(root, "docs", "mounting.md"), "utf8");

const MARKER = /^\s*\/\/ docs\/mounting\.md, "([^"]+)": the recipe's lines/;
const END = /^\s*\/\/ end of recipe/;

/** The lines a test file marks as its recipe (between the marker comment and "end of recipe"), trimmed. */
function recipeOf(file: string): { section: string; lines: string[] } {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const start = lines.findIndex((line) => MARKER.test(line));
  const end = lines.findIndex((line, i) => i > start && END.test(line));
  if (start < 0 || end < 0) throw new Error(`${file}: no recipe markers`);
  return {
    section: MARKER.exec(lines[start]!)![1]!,
    lines: lines.slice(start + 1, end).map((l) => l.trim()),
  };
}

/** The first ```ts block under `## section`, trimmed lines. */
function docBlock(section: string): string[] {
  const heading = doc.indexOf(`\n## ${section}\n`);
  if (heading < 0) throw new Error(`docs/mounting.md has no section "## ${section}"`);
  const open = doc.indexOf("```ts\n", heading);
  const close = doc.indexOf("\n```", open + 6);
  return doc
    .slice(open + 6, close)
    .split("\n")
    .map((l) => l.trim());
}

describe("docs/mounting.md recipes are the tested lines", () => {
  it.each([
    "test/mounting/node-http-mount.test.ts",
    "test/mounting/express-mount.test.ts",
    "test/mounting/hono-mount.test.ts",
  ])("%s", (file) => {
    const recipe = recipeOf(file);
    expect(recipe.lines.length).toBeGreaterThan(0);
    const block = docBlock(recipe.section);
    for (const line of recipe.lines) expect(block, `${recipe.section}: ${line}`).toContain(line);
  });

  it("is linked from the README", () => {
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("(docs/mounting.md)");
  });
});
