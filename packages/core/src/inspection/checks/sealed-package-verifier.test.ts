import { describe, expect, it } from "vitest";
import { sealPackage } from "../../decisions/evidence/sealed-package.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { cleanPackage, releaseRows, rowLookup } from "../corpus/clean-packages.fixture.js";
import { withSeal } from "../corpus/corpus-seal.fixture.js";
import { inspectPackage } from "../inspect-package.js";
import type { InspectedPackage } from "../inspected-package.js";
import { verifySealedPackage } from "./sealed-package-verifier.js";

const catalog = loadBundleCatalog();
const clean = cleanPackage(catalog, { golden: "external-admin-delete", id: "seal-real" });
const inspect = (pkg: InspectedPackage) =>
  inspectPackage(pkg, {
    catalog,
    verifySeal: verifySealedPackage,
    releaseRow: rowLookup(releaseRows(catalog)),
    now: 1,
  });

describe("the inspector's seal verifier over verifyPackageSeal", () => {
  it("a package sealed by the sealed-evidence module, reasons included, is INTACT and passes REASON_MATCH", async () => {
    const sealed = withSeal(clean);
    expect(clean.metadata.reasons!.length).toBeGreaterThan(0);
    expect(sealed.seal!.header.metadata.reasons).toEqual(clean.metadata.reasons);
    expect(verifySealedPackage(sealed)).toEqual({ state: "INTACT" });
    const r = await inspect(sealed);
    expect(r.verdict).toBe("PASS");
    expect(r.checks.find((c) => c.check === "REASON_MATCH")!.status).toBe("PASS");
  });

  it("a package without a seal is NOT_SEALED", () => {
    expect(verifySealedPackage(clean)).toEqual({ state: "NOT_SEALED" });
  });

  it("an older package sealed without reasons still verifies; REASON_MATCH is unverifiable there", async () => {
    const { reasons: _reasons, ...metadata } = clean.metadata;
    const old = withSeal({ ...clean, metadata });
    expect(verifySealedPackage(old)).toEqual({ state: "INTACT" });
    const r = await inspect(old);
    expect(r.findings.map((f) => `${f.kind}:${f.check}:${f.reason}`)).toEqual([
      "UNVERIFIABLE:REASON_MATCH:REASONS_NOT_SEALED",
    ]);
    expect(r.verdict).toBe("INCOMPLETE");
  });

  it("tampering after sealing: metadata, a prompt, the context, the header", () => {
    const sealed = withSeal(clean);
    const metadata = { ...sealed, metadata: { ...sealed.metadata, action: "ALLOW_WITH_MONITORING" } };
    expect(verifySealedPackage(metadata)).toMatchObject({ state: "BROKEN", reason: "FIELD_DIFFERS" });
    const at = { ...sealed, at: sealed.at + 1 };
    expect(verifySealedPackage(at)).toMatchObject({ state: "BROKEN", reason: "FIELD_DIFFERS" });
    const prompt = { ...sealed, prompts: [{ ...sealed.prompts[0]!, user: `${sealed.prompts[0]!.user} ` }] };
    expect(verifySealedPackage(prompt)).toMatchObject({
      state: "BROKEN",
      reason: "PROMPT_HASH_DIFFERS",
      prompt: 0,
      part: "user",
    });
    const input = { ...sealed, input: { ...sealed.input, eventId: "other" } };
    expect(verifySealedPackage(input)).toMatchObject({ state: "BROKEN", reason: "CONTEXT_HASH_DIFFERS" });
    const header = { ...sealed.seal!.header, at: 5 };
    expect(verifySealedPackage({ ...sealed, seal: { ...sealed.seal!, header } })).toMatchObject({
      state: "BROKEN",
      reason: "PACKAGE_HASH_DIFFERS",
    });
  });

  it("the hash covers the reasons: a reason changed in the header breaks the package hash", () => {
    const s = sealPackage(clean, "i1");
    const header = { ...s.header, metadata: { ...s.header.metadata, reasons: [] } };
    const pkg: InspectedPackage = { ...clean, seal: { header, packageHash: s.packageHash } };
    expect(verifySealedPackage(pkg)).toMatchObject({ state: "BROKEN", reason: "PACKAGE_HASH_DIFFERS" });
  });
});
