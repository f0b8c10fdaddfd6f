import { describe, expect, it } from "vitest";
import { BUNDLE_ELEMENT_IDS } from "../hashing/bundle-element.js";
import { bundleHash } from "../hashing/bundle-hash.js";
import { type Dictionary, V20_DICTIONARY } from "../layouts/v20/v20-dictionary.js";
import { DEFAULT_BUNDLE_ROOT, readGoldenInputs } from "../manifest/bundle-root.js";
import { recordsOf } from "../manifest/manifest-checks.js";
import { elementSources, goldenRenders } from "./element-sources.js";
import { createV20Bundle, V20_BUNDLE } from "./v20-bundle.js";

const inputs = readGoldenInputs(DEFAULT_BUNDLE_ROOT, V20_BUNDLE.goldenInputs);
const recordsWith = (dictionary: Dictionary) =>
  recordsOf(elementSources(createV20Bundle(dictionary), inputs));
const base = recordsOf(elementSources(V20_BUNDLE, inputs));

/** The dictionary with one entry's `name` changed. */
function renamed(key: string): Dictionary {
  return {
    ...V20_DICTIONARY,
    blocks: V20_DICTIONARY.blocks.map((b) => ({
      ...b,
      entries: b.entries.map((e) => (e.key === key ? { ...e, name: `${e.name}-renamed` } : e)),
    })),
  };
}

const changedElements = (dictionary: Dictionary) => {
  const records = recordsWith(dictionary);
  return {
    elements: BUNDLE_ELEMENT_IDS.filter((id) => records[id].digest !== base[id].digest),
    hashChanged: bundleHash(records) !== bundleHash(base),
  };
};

const drawnByGoldens = (key: string) =>
  goldenRenders(V20_BUNDLE, inputs).some((r) =>
    r.user.includes(
      `. ${V20_DICTIONARY.blocks.flatMap((b) => b.entries).find((e) => e.key === key)!.name}: `,
    ),
  );

describe("changing one v20 dictionary entry", () => {
  it("that a golden input draws changes B2, B3 and the bundle hash, and no other element", () => {
    expect(drawnByGoldens("location.asn")).toBe(true);
    expect(changedElements(renamed("location.asn"))).toEqual({ elements: ["B2", "B3"], hashChanged: true });
  });

  it("that no golden input draws changes B2 and the bundle hash, and no other element", () => {
    expect(drawnByGoldens("session.mfa-completed")).toBe(false);
    expect(changedElements(renamed("session.mfa-completed"))).toEqual({
      elements: ["B2"],
      hashChanged: true,
    });
  });

  it("marks v20's B2 and B5 PRESENT, B9 ABSENT and B11 INCLUDED; v19's B2 and B5 are ABSENT", async () => {
    const { V19_BUNDLE } = await import("./v19-bundle.js");
    const v19 = recordsOf(
      elementSources(V19_BUNDLE, readGoldenInputs(DEFAULT_BUNDLE_ROOT, V19_BUNDLE.goldenInputs)),
    );
    expect(BUNDLE_ELEMENT_IDS.map((id) => base[id].state)).toEqual([
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "ABSENT",
      "PRESENT",
      "INCLUDED",
    ]);
    expect(BUNDLE_ELEMENT_IDS.map((id) => v19[id].state)).toEqual([
      "PRESENT",
      "ABSENT",
      "PRESENT",
      "PRESENT",
      "ABSENT",
      "PRESENT",
      "PRESENT",
      "PRESENT",
      "ABSENT",
      "PRESENT",
      "INCLUDED",
    ]);
  });
});
