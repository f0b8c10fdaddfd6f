import { describe, expect, it } from "vitest";
import { loadBundleCatalog } from "../prompts/manifest/bundle-catalog.js";
import { noSealYet } from "./checks/seal-integrity.js";
import { BROKEN_CASES } from "./corpus/broken-packages.fixture.js";
import { cleanPackage, releaseRows, rowLookup, V19, V20 } from "./corpus/clean-packages.fixture.js";
import { withSeal } from "./corpus/corpus-seal.fixture.js";
import { verifySealedPackage } from "./checks/sealed-package-verifier.js";
import { type InspectorOptions, inspectPackage } from "./inspect-package.js";
import type { InspectedPackage } from "./inspected-package.js";
import { CHECK_CODES, INSPECTOR_VERSION } from "./inspection-result.js";

const catalog = loadBundleCatalog();
const options: InspectorOptions = {
  catalog,
  verifySeal: verifySealedPackage,
  releaseRow: rowLookup(releaseRows(catalog)),
  now: 1,
};
const inspect = (pkg: InspectedPackage, extra: Partial<InspectorOptions> = {}) =>
  inspectPackage(pkg, { ...options, ...extra });
const mismatches = (r: Awaited<ReturnType<typeof inspect>>) =>
  r.findings.filter((f) => f.kind === "MISMATCH").map((f) => `${f.check}:${f.reason}`);

const CLEAN_V20 = [
  { golden: "internal-read" },
  { golden: "partly-known" },
  { golden: "every-fact-missing" },
  { golden: "external-admin-delete", layers: ["L1", "L2"] as const },
  { golden: "long-history", layers: ["L1", "L2"] as const },
];

describe("clean packages from the real bundles", () => {
  it.each(CLEAN_V20)("a v20 package of $golden passes every check, with no finding", async (from) => {
    const r = await inspect(withSeal(cleanPackage(catalog, from)));
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe("PASS");
    expect(r.checks.map((c) => c.check)).toEqual(CHECK_CODES);
    expect(r.checks.find((c) => c.check === "SOURCE_TRUTH")!.status).toBe("NOT_INTEGRATED");
    expect(r.checks.filter((c) => c.check !== "SOURCE_TRUTH").every((c) => c.status === "PASS")).toBe(true);
    expect(r.checks.find((c) => c.check === "DICTIONARY_CONTRACT")!.items).toBeGreaterThan(0);
    expect(r.inspectorVersion).toBe(INSPECTOR_VERSION);
    expect(r.dictionaryVersion).toBe(`v20@${catalog.find(V20)!.manifest.elements.B2.digest.slice(0, 12)}`);
  });

  it("a v19 package: only the layout-free checks run, no finding, NOT_APPLICABLE", async () => {
    const r = await inspect(
      withSeal(cleanPackage(catalog, { golden: "external-admin-delete", version: V19 })),
    );
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe("NOT_APPLICABLE");
    expect(r.checks.filter((c) => c.status === "PASS").map((c) => c.check)).toEqual([
      "SEAL_INTEGRITY",
      "BUNDLE_TRACE",
    ]);
  });
});

describe("the broken-package corpus: one change each", () => {
  it.each(BROKEN_CASES)("$name: flagged by exactly its checks", async (c) => {
    const clean = cleanPackage(catalog, { ...c.from, id: `broken-${c.name}` });
    const pkg = c.sealed === "BEFORE" ? withSeal(c.change(clean)) : c.change(withSeal(clean));
    const r = await inspect(pkg);
    expect(r.verdict).toBe("FAIL");
    expect(new Set(mismatches(r))).toEqual(new Set(c.mismatches));
    const onLines = r.findings.filter((f) => !["BUNDLE_TRACE", "SEAL_INTEGRITY"].includes(f.check));
    for (const f of onLines)
      expect(f.location?.line, `${f.check} ${f.reason} names its line`).toBeGreaterThan(0);
  });
});

describe("what cannot be verified is never counted as passing", () => {
  it("a masked package: its masked facts are UNVERIFIABLE (REDACTED), never a MISMATCH; INCOMPLETE", async () => {
    const pkg = withSeal(cleanPackage(catalog, { golden: "internal-read", redact: true }));
    expect(pkg.metadata.redacted.length).toBeGreaterThan(0);
    const r = await inspect(pkg);
    expect(mismatches(r)).toEqual([]);
    expect(
      r.findings.some(
        (f) => f.check === "FACT_ACCURACY" && f.reason === "REDACTED" && f.kind === "UNVERIFIABLE",
      ),
    ).toBe(true);
    expect(r.verdict).toBe("INCOMPLETE");
  });

  it("an unsealed package (today's), no registry: SEAL_INTEGRITY NOT_SEALED and BUNDLE_TRACE NO_REGISTRY, INCOMPLETE", async () => {
    const r = await inspect(cleanPackage(catalog, { golden: "internal-read" }), {
      verifySeal: noSealYet,
      releaseRow: undefined,
    });
    expect(r.findings.map((f) => `${f.kind}:${f.check}:${f.reason}`)).toEqual([
      "UNVERIFIABLE:SEAL_INTEGRITY:NOT_SEALED",
      "UNVERIFIABLE:BUNDLE_TRACE:NO_REGISTRY",
    ]);
    expect(r.verdict).toBe("INCOMPLETE");
  });

  it("a v20 package drawn with another build's dictionary: the v20 checks are UNVERIFIABLE (FOREIGN_DICTIONARY)", async () => {
    const clean = cleanPackage(catalog, { golden: "internal-read", id: "foreign" });
    const pkg = withSeal({ ...clean, metadata: { ...clean.metadata, bundleHash: "0".repeat(64) } });
    const r = await inspect(pkg, { releaseRow: undefined });
    expect(mismatches(r)).toEqual([]);
    expect(r.checks.filter((c) => c.status === "UNVERIFIABLE").length).toBe(10);
    expect(r.findings.filter((f) => f.reason === "FOREIGN_DICTIONARY").length).toBe(8);
    expect(r.verdict).toBe("INCOMPLETE");
  });

  it("a package that is not one answers ERROR, never throws", async () => {
    const clean = cleanPackage(catalog, { golden: "internal-read" });
    const r = await inspect({ ...clean, input: null } as unknown as InspectedPackage);
    expect(r.verdict).toBe("ERROR");
    expect(r.error?.code).toBe("PACKAGE_UNREADABLE");
  });
});

describe("hostile prompts", () => {
  it("a prompt of 200,000 characters built to make patterns backtrack is inspected in well under a second", async () => {
    const clean = cleanPackage(catalog, { golden: "internal-read", id: "hostile" });
    const junk = `${"x (".repeat(60_000)}; 1. a: ${"{F".repeat(20_000)}`;
    const user = clean.prompts[0]!.user.replace("UNKNOWN: none", `UNKNOWN: ${junk}`);
    const started = performance.now();
    const r = await inspect(withSeal({ ...clean, prompts: [{ ...clean.prompts[0]!, user }] }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(r.verdict).toBe("FAIL");
    expect(mismatches(r)).toContain("DICTIONARY_CONTRACT:UNKNOWN_LINE_FORM");
  });
});
