// docs/README.md is the path through the documentation (issue 33): every page of docs/ is on it, and
// every link on it leads somewhere (a file that exists, a heading that exists).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOCS = join(ROOT, "docs");
const PATH_PAGE = join(DOCS, "README.md");

/** The relative links of a Markdown text: `[text](target)`, without web addresses. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const m of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (!/^[a-z]+:/i.test(target) && !target.startsWith("#")) links.push(target);
  }
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, "utf8").match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((h) => anchorOf(h.replace(/^#+ /, ""))));
}

describe("docs/README.md, the path through the documentation", () => {
  const page = readFileSync(PATH_PAGE, "utf8");
  const links = relativeLinks(page);

  it("links every page of docs/ (a new page is put on the path)", () => {
    const linked = new Set(links.map((l) => normalize(join(DOCS, l.split("#")[0]!))));
    const pages = readdirSync(DOCS).filter((f) => f.endsWith(".md") && f !== "README.md");
    expect(pages.filter((p) => !linked.has(join(DOCS, p)))).toEqual([]);
  });

  it("leads to files and headings that exist", () => {
    const broken = links.filter((link) => {
      const [path, anchor] = link.split("#");
      const target = normalize(join(dirname(PATH_PAGE), path!));
      if (!existsSync(target)) return true;
      return anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});
