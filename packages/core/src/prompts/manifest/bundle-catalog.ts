import { readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { PlatformError } from "../../kernel/platform-error.js";
import { BUILD_BUNDLES, BUILD_DEFAULT_VERSION } from "../bundles/build-bundles.js";
import type { BundleDefinition } from "../bundles/bundle-definition.js";
import { elementSources } from "../bundles/element-sources.js";
import type { BundleManifest } from "./bundle-manifest.js";
import { manifestName } from "./bundle-manifest.js";
import { DEFAULT_BUNDLE_ROOT, listManifestFiles, readGoldenInputs } from "./bundle-root.js";
import { checkElementsCurrent, checkStoredHashes, recordsOf } from "./manifest-checks.js";
import { manifestValidator } from "./manifest-schema.js";

/** Options of `loadBundleCatalog`; every field has a default. */
export interface BundleCatalogOptions {
  /** The bundle root (schema, golden inputs); default the repository's `prompt-bundles/`. */
  root?: string;
  /** Manifest directories read, in order; default `<root>/manifests`. */
  manifestDirectories?: readonly string[];
  /** The bundles this build runs; default BUILD_BUNDLES. */
  bundles?: readonly BundleDefinition[];
}

/** One manifest the catalog read, with the code that runs it when it is in this build. */
export interface CatalogEntry {
  /** The manifest file, relative to the root's parent (`prompt-bundles/manifests/…`). */
  readonly file: string;
  readonly manifest: BundleManifest;
  /** The bundle's code when this build runs it; undefined for a record. */
  readonly bundle: BundleDefinition | undefined;
}

/** Every manifest of the build, checked: the runnable bundles and the records. */
export interface BundleCatalog {
  readonly root: string;
  readonly entries: readonly CatalogEntry[];
  readonly buildDefault: string;
  /** The entry of `version` (of the security-decision key), or undefined. */
  find(version: string): CatalogEntry | undefined;
  /** The runnable bundle of `version`; PROMPT_BUNDLE_NOT_IN_BUILD for a record or an unknown version. */
  runnable(version: string): BundleDefinition;
}

function readManifest(path: string, shown: string, validate: (v: unknown) => string[]): BundleManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new PlatformError("PROMPT_MANIFEST_INVALID", `${shown}: not readable JSON`, {
      cause,
      details: { manifest: shown },
    });
  }
  const issues = validate(value);
  if (issues.length)
    throw new PlatformError("PROMPT_MANIFEST_INVALID", `${shown}: ${issues.join("; ")}`, {
      details: { manifest: shown, issues },
    });
  const manifest = value as BundleManifest;
  const { promptKey, promptVersion } = manifest.descriptor;
  if (basename(path) !== `${promptVersion}.json` || basename(dirname(path)) !== promptKey)
    throw new PlatformError(
      "PROMPT_MANIFEST_INVALID",
      `${shown}: a manifest of ${promptKey} ${promptVersion} must be manifests/${promptKey}/${promptVersion}.json`,
      { details: { manifest: shown } },
    );
  checkStoredHashes(shown, manifest);
  return manifest;
}

function dedupe(
  read: { file: string; manifest: BundleManifest }[],
): { file: string; manifest: BundleManifest }[] {
  const byName = new Map<string, { file: string; manifest: BundleManifest }>();
  for (const item of read) {
    const name = manifestName(item.manifest);
    const seen = byName.get(name);
    if (seen === undefined) byName.set(name, item);
    else if (seen.manifest.bundleHash !== item.manifest.bundleHash)
      throw new PlatformError(
        "PROMPT_MANIFEST_CONFLICT",
        `${name} has two manifests with different hashes: ${seen.file} and ${item.file}`,
        { details: { name, manifests: [seen.file, item.file] } },
      );
  }
  return [...byName.values()];
}

/**
 * Reads and checks every manifest: schema, file name, stored hashes, no name with two hashes, and
 * for each bundle this build runs, a manifest whose elements are what its code produces now. The
 * first problem throws, naming the manifest and the element; a host's start-up stops on it.
 */
export function loadBundleCatalog(options: BundleCatalogOptions = {}): BundleCatalog {
  const root = options.root ?? DEFAULT_BUNDLE_ROOT;
  const bundles = options.bundles ?? BUILD_BUNDLES;
  const validate = manifestValidator(root);
  const shownFrom = dirname(root);
  const read = (options.manifestDirectories ?? [join(root, "manifests")]).flatMap((dir) =>
    listManifestFiles(dir).map((path) => {
      const file = relative(shownFrom, path);
      return { file, manifest: readManifest(path, file, validate) };
    }),
  );
  const manifests = dedupe(read);
  const entries: CatalogEntry[] = manifests.map((m) => ({
    ...m,
    bundle: bundles.find((b) => manifestName({ descriptor: b.descriptor }) === manifestName(m.manifest)),
  }));
  for (const bundle of bundles) {
    const name = manifestName({ descriptor: bundle.descriptor });
    const entry = entries.find((e) => e.bundle === bundle);
    if (!entry)
      throw new PlatformError("PROMPT_MANIFEST_MISSING", `${name} runs in this build but has no manifest`, {
        details: { name },
      });
    const current = recordsOf(elementSources(bundle, readGoldenInputs(root, bundle.goldenInputs)));
    checkElementsCurrent(entry.file, entry.manifest, current);
  }
  return catalogOf(root, entries);
}

function catalogOf(root: string, entries: CatalogEntry[]): BundleCatalog {
  const find = (version: string) => entries.find((e) => e.manifest.descriptor.promptVersion === version);
  return {
    root,
    entries,
    buildDefault: BUILD_DEFAULT_VERSION,
    find,
    runnable(version) {
      const bundle = find(version)?.bundle;
      if (bundle === undefined)
        throw new PlatformError("PROMPT_BUNDLE_NOT_IN_BUILD", `Bundle ${version} is not run by this build`, {
          details: { version },
        });
      return bundle;
    },
  };
}
