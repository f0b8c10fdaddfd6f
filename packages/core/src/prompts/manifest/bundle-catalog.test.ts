import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { V19_BUNDLE } from "../bundles/v19-bundle.js";
import { bundleHash } from "../hashing/bundle-hash.js";
import { elementDigest } from "../hashing/bundle-element.js";
import { loadBundleCatalog } from "./bundle-catalog.js";
import type { BundleManifest } from "./bundle-manifest.js";
import { DEFAULT_BUNDLE_ROOT } from "./bundle-root.js";

const KEY = "cortex.security-decision";
const V19 = "2026.07.30-v19";
const V18 = "2026.05.12-v18";
const roots: string[] = [];

function copyRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), "bundles-"));
  roots.push(dir);
  const root = join(dir, "prompt-bundles");
  cpSync(DEFAULT_BUNDLE_ROOT, root, { recursive: true });
  return root;
}
const manifestPath = (root: string, version: string) => join(root, "manifests", KEY, `${version}.json`);
const readManifest = (root: string, version: string): BundleManifest =>
  JSON.parse(readFileSync(manifestPath(root, version), "utf8"));
const writeManifest = (path: string, m: unknown) => writeFileSync(path, JSON.stringify(m, null, 2));

/** The error `load` throws, with its code and message. */
function failure(load: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    load();
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { code: error.code, message: error.message, details: error.details ?? {} };
  }
  throw new Error("expected the catalog to fail");
}

afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadBundleCatalog on the committed bundles", () => {
  it("reads the runnable bundles and the records, and tells them apart", () => {
    const catalog = loadBundleCatalog();
    const versions = catalog.entries.map((e) => [
      e.manifest.descriptor.promptVersion,
      e.bundle !== undefined,
    ]);
    expect(versions).toEqual(
      expect.arrayContaining([
        [V19, true],
        [V18, false],
        ["2026.02.03-v17", false],
      ]),
    );
    expect(catalog.buildDefault).toBe(V19);
    expect(catalog.runnable(V19)).toBe(V19_BUNDLE);
    expect(catalog.find(V19)!.manifest.rollbackTargets).toEqual([V18]);
  });

  it("refuses to run a record or an unknown version", () => {
    const catalog = loadBundleCatalog();
    expect(failure(() => catalog.runnable(V18)).code).toBe("PROMPT_BUNDLE_NOT_IN_BUILD");
    expect(failure(() => catalog.runnable("2030.01.01-v99")).code).toBe("PROMPT_BUNDLE_NOT_IN_BUILD");
  });
});

describe("checks on read", () => {
  it("a tampered bundle hash fails, naming the manifest", () => {
    const root = copyRoot();
    const m = readManifest(root, V18);
    writeManifest(manifestPath(root, V18), { ...m, bundleHash: "0".repeat(64) });
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_BUNDLE_HASH_MISMATCH");
    expect(f.message).toContain(`manifests/${KEY}/${V18}.json`);
    expect(f.message).toContain("does not match its elements");
  });

  it("a tampered element record fails the bundle hash, even when the hash field is left alone", () => {
    const root = copyRoot();
    const m = readManifest(root, V19);
    writeManifest(manifestPath(root, V19), {
      ...m,
      elements: { ...m.elements, B4: { ...m.elements.B4, digest: "f".repeat(64) } },
    });
    expect(failure(() => loadBundleCatalog({ root })).code).toBe("PROMPT_BUNDLE_HASH_MISMATCH");
  });

  it("a marker element with another digest fails, naming the element", () => {
    const root = copyRoot();
    const m = readManifest(root, V18);
    const elements = { ...m.elements, B9: { ...m.elements.B9, digest: "a".repeat(64) } };
    writeManifest(manifestPath(root, V18), { ...m, elements, bundleHash: bundleHash(elements) });
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_BUNDLE_HASH_MISMATCH");
    expect(f.message).toMatch(/2026\.05\.12-v18\.json: element B9 \(Verifier contracts\)/);
  });

  it("a runnable bundle whose code changed without a manifest update fails, naming the stale elements", () => {
    const root = copyRoot();
    const inputPath = join(root, "golden", "inputs", "internal-read.json");
    const input = JSON.parse(readFileSync(inputPath, "utf8"));
    writeFileSync(inputPath, JSON.stringify({ ...input, eventId: "evt-changed" }));
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_ELEMENT_STALE");
    expect(f.message).toContain(`${V19}.json: element B3 (Golden render) no longer matches the code`);
    expect(f.details.elements).toEqual(["B3"]);
  });

  it("a changed system text is stale in B1", () => {
    const changed = { ...V19_BUNDLE, renderSystem: () => "changed" };
    const f = failure(() => loadBundleCatalog({ bundles: [changed] }));
    expect(f.code).toBe("PROMPT_ELEMENT_STALE");
    expect(f.details.elements).toEqual(["B1"]);
  });

  it("two manifests of one name with different hashes fail, naming both", () => {
    const root = copyRoot();
    const other = join(root, "..", "more", KEY);
    mkdirSync(other, { recursive: true });
    const m = readManifest(root, V18);
    const elements = {
      ...m.elements,
      B1: { ...m.elements.B1, digest: elementDigest("B1", { state: "PRESENT", content: "other" }) },
    };
    writeManifest(join(other, `${V18}.json`), { ...m, elements, bundleHash: bundleHash(elements) });
    const f = failure(() =>
      loadBundleCatalog({ root, manifestDirectories: [join(root, "manifests"), join(root, "..", "more")] }),
    );
    expect(f.code).toBe("PROMPT_MANIFEST_CONFLICT");
    expect(f.message).toContain(`${KEY}@${V18} has two manifests with different hashes`);
    expect(f.details.manifests).toHaveLength(2);
  });

  it("the same manifest read twice is one entry", () => {
    const root = copyRoot();
    const catalog = loadBundleCatalog({
      root,
      manifestDirectories: [join(root, "manifests"), join(root, "manifests")],
    });
    expect(catalog.entries).toHaveLength(4);
  });

  it("a manifest against the schema fails with ajv's findings", () => {
    const root = copyRoot();
    const m = readManifest(root, V18) as unknown as Record<string, unknown>;
    writeManifest(manifestPath(root, V18), { ...m, layout: "v21-poems", extra: true });
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_MANIFEST_INVALID");
    expect(f.details.issues).toEqual(
      expect.arrayContaining([
        "/layout must be equal to one of the allowed values",
        "(manifest) must NOT have additional properties",
      ]),
    );
  });

  it("a manifest under another version's file name fails", () => {
    const root = copyRoot();
    cpSync(manifestPath(root, V18), join(root, "manifests", KEY, "2026.06.01-v18.json"));
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_MANIFEST_INVALID");
    expect(f.message).toContain(`must be manifests/${KEY}/${V18}.json`);
  });

  it("a file that is not JSON fails as invalid", () => {
    const root = copyRoot();
    writeFileSync(manifestPath(root, V18), "{ not json");
    expect(failure(() => loadBundleCatalog({ root })).code).toBe("PROMPT_MANIFEST_INVALID");
  });

  it("a runnable bundle without a manifest fails", () => {
    const root = copyRoot();
    rmSync(manifestPath(root, V19));
    const f = failure(() => loadBundleCatalog({ root }));
    expect(f.code).toBe("PROMPT_MANIFEST_MISSING");
    expect(f.message).toContain(`${KEY}@${V19}`);
  });
});
