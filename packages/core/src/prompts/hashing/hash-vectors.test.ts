import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type BundleElementId,
  type ElementSource,
  elementDigest,
  elementPreimage,
} from "./bundle-element.js";
import { bundleHash, bundleHashPreimage, type ElementRecords } from "./bundle-hash.js";
import { sha256Hex, utf8Hex } from "./canonical-json.js";

const page = readFileSync(
  fileURLToPath(new URL("../../../../../docs/prompt-bundles.md", import.meta.url)),
  "utf8",
);
type Vector = Record<string, string>;
const vectors: Vector[] = [...page.split("### Test vectors")[1]!.matchAll(/```text\n([\s\S]*?)```/g)].map(
  (m) =>
    Object.fromEntries(
      m[1]!
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    ),
);

describe("the hash test vectors in docs/prompt-bundles.md", () => {
  it("cover every element state and a whole bundle", () => {
    const states = vectors.filter((v) => v.source).map((v) => (JSON.parse(v.source!) as ElementSource).state);
    expect(states.sort()).toEqual(["ABSENT", "INCLUDED", "PRESENT", "UNVERSIONED"]);
    expect(vectors.filter((v) => v.elements)).toHaveLength(1);
  });

  it.each(vectors.filter((v) => v.source).map((v) => [v.element, v] as const))(
    "element vector %s: canonical bytes and digest are what the code computes",
    (id, v) => {
      const source = JSON.parse(v.source!) as ElementSource;
      expect(elementPreimage(id as BundleElementId, source)).toBe(v.canonical);
      expect(utf8Hex(v.canonical!)).toBe(v.hex);
      expect(sha256Hex(v.canonical!)).toBe(v.sha256);
      expect(elementDigest(id as BundleElementId, source)).toBe(v.sha256);
    },
  );

  it("bundle vector: canonical bytes and hash are what the code computes", () => {
    const v = vectors.find((x) => x.elements) as Vector;
    const elements = JSON.parse(v.elements!) as ElementRecords;
    expect(bundleHashPreimage(elements)).toBe(v.canonical);
    expect(utf8Hex(v.canonical!)).toBe(v.hex);
    expect(bundleHash(elements)).toBe(v.sha256);
  });
});
