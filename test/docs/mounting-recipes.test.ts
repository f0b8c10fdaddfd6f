import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const doc = readFileSync(join(root, "docs", "mounting.md"), "utf8");

const MARKER = /^\s*\/\/ docs\/mounting\.md, "([^"]+)": the recipe's lines/;
const END = /^\s*\/\/ end of recipe/;

/** Every recipe a test file marks (lines between a marker comment and "end of recipe"), trimmed. */
function recipesOf(file: string): { section: string; lines: string[] }[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const recipes: { section: string; lines: string[] }[] = [];
  lines.forEach((line, start) => {
    const marker = MARKER.exec(line);
    if (!marker) return;
    const end = lines.findIndex((l, i) => i > start && END.test(l));
    if (end < 0) throw new Error(`${file}: recipe "${marker[1]}" has no end marker`);
    recipes.push({ section: marker[1]!, lines: lines.slice(start + 1, end).map((l) => l.trim()) });
  });
  if (recipes.length === 0) throw new Error(`${file}: no recipe markers`);
  return recipes;
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
    for (const recipe of recipesOf(file)) {
      expect(recipe.lines.length).toBeGreaterThan(0);
      const block = docBlock(recipe.section);
      for (const line of recipe.lines) expect(block, `${recipe.section}: ${line}`).toContain(line);
    }
  });

  it("is linked from the README", () => {
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("(docs/mounting.md)");
  });
});
