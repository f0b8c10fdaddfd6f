import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const folder = join(root, "docs", "decisions");
const index = readFileSync(join(folder, "README.md"), "utf8");

/** The topic files: every markdown file of docs/decisions/ but the index. */
const topics = readdirSync(folder)
  .filter((name) => name.endsWith(".md") && name !== "README.md")
  .sort();

/** Local markdown links of a text, `file.md#anchor`, `file.md` or `#anchor`; code spans and blocks left out. */
const localLinks = (text: string) =>
  [
    ...text
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target));

/** The anchors a topic file declares (`<a id="…"></a>`). */
const anchorsOf = (name: string) =>
  [...readFileSync(join(folder, name), "utf8").matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);

describe("docs/decisions/", () => {
  it("has replaced the single docs/decisions.md for good", () => {
    expect(existsSync(join(root, "docs", "decisions.md"))).toBe(false);
  });

  it("lists every topic file in the index, and the index links only files that exist", () => {
    const linked = [...index.matchAll(/^- \[[^\]]+\]\(([^)#]+\.md)\): \S/gm)].map((m) => m[1]!);
    expect(topics.length).toBeGreaterThan(0);
    expect([...linked].sort()).toEqual(topics);
    for (const target of localLinks(index)) {
      expect(existsSync(join(folder, target.split("#")[0]!)), `README.md links ${target}`).toBe(true);
    }
  });

  it("states the rule every later issue follows", () => {
    expect(index).toContain("never to one long file");
    expect(index).toContain("**Superseded by …** with a link, never deleted");
  });

  it.each(topics)("%s: every decision has an anchor and an origin, anchors are unique", (name) => {
    const text = readFileSync(join(folder, name), "utf8");
    const decisions = text.split("\n").filter((line) => line.startsWith("- "));
    expect(decisions.length).toBeGreaterThan(0);
    for (const line of decisions) expect(line).toMatch(/^- <a id="[a-z0-9-]+"><\/a>\*[^*]+\*( · .*)?\\$/);
    const anchors = anchorsOf(name);
    expect(new Set(anchors).size, "a repeated anchor").toBe(anchors.length);
  });

  it.each(topics)("%s: every Superseded by / Extended by names a link, and every link lands", (name) => {
    const text = readFileSync(join(folder, name), "utf8");
    for (const marker of text.matchAll(/\*\*(?:Superseded|Extended) by\*\* (.)/g))
      expect(marker[1]).toBe("[");
    for (const target of localLinks(text)) {
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const into = file === "" ? name : file;
      expect(existsSync(join(folder, into)), `${name} links ${target}`).toBe(true);
      if (anchor !== undefined) expect(anchorsOf(into), `${name} links ${target}`).toContain(anchor);
    }
  });
});
