import { describe, expect, it } from "vitest";
import {
  BUNDLE_ELEMENT_IDS,
  type BundleElementId,
  ELEMENT_STATES,
  type ElementSource,
  elementDigest,
  elementRecord,
} from "./bundle-element.js";
import { bundleHash, type ElementRecords } from "./bundle-hash.js";

const sourceIn = (state: (typeof ELEMENT_STATES)[number], content: unknown = { a: 1 }): ElementSource =>
  state === "PRESENT" ? { state, content: content as never } : { state };

const recordsWith = (change?: [BundleElementId, ElementSource]): ElementRecords =>
  Object.fromEntries(
    BUNDLE_ELEMENT_IDS.map((id) => [
      id,
      elementRecord(id, change?.[0] === id ? change[1] : sourceIn("PRESENT", { id })),
    ]),
  ) as ElementRecords;

describe("element digests", () => {
  it.each(BUNDLE_ELEMENT_IDS.map((id) => [id]))("%s: each of the four states has its own digest", (id) => {
    const digests = ELEMENT_STATES.map((state) => elementDigest(id, sourceIn(state)));
    expect(new Set(digests).size).toBe(4);
    for (const d of digests) expect(d).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a PRESENT element hashes its content; key order does not matter, values do", () => {
    expect(elementDigest("B4", sourceIn("PRESENT", { a: 1, b: [1, 2] }))).toBe(
      elementDigest("B4", sourceIn("PRESENT", { b: [1, 2], a: 1 })),
    );
    expect(elementDigest("B4", sourceIn("PRESENT", { a: 1, b: [1, 2] }))).not.toBe(
      elementDigest("B4", sourceIn("PRESENT", { a: 1, b: [2, 1] })),
    );
  });

  it("equal content in two slots, or one marker in two slots, never shares a digest", () => {
    expect(elementDigest("B4", sourceIn("PRESENT"))).not.toBe(elementDigest("B6", sourceIn("PRESENT")));
    expect(elementDigest("B2", sourceIn("ABSENT"))).not.toBe(elementDigest("B5", sourceIn("ABSENT")));
  });

  it("the records carry the element's fixed name", () => {
    expect(elementRecord("B9", { state: "ABSENT" }).name).toBe("Verifier contracts");
    expect(elementRecord("B11", { state: "INCLUDED" }).name).toBe("Second analysis");
  });
});

describe("the bundle hash", () => {
  it.each(BUNDLE_ELEMENT_IDS.map((id) => [id]))("covers %s: changing it alone changes the hash", (id) => {
    expect(bundleHash(recordsWith([id, sourceIn("PRESENT", { changed: id })]))).not.toBe(
      bundleHash(recordsWith()),
    );
  });

  it("covers the state: a record that only changes its state changes the hash", () => {
    const base = recordsWith();
    const restated = { ...base, B6: { ...base.B6, state: "UNVERSIONED" as const } };
    expect(bundleHash(restated)).not.toBe(bundleHash(base));
  });

  it("ignores the records' names (labels)", () => {
    const base = recordsWith();
    expect(bundleHash({ ...base, B1: { ...base.B1, name: "Renamed" } })).toBe(bundleHash(base));
  });
});
