import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";

/**
 * Where a bundle selection came from. CONFIGURATION and BUILD_DEFAULT are chosen today; REGISTRY,
 * CANARY and SHADOW are for the release registry.
 */
export const SELECTION_SOURCES = ["BUILD_DEFAULT", "CONFIGURATION", "REGISTRY", "CANARY", "SHADOW"] as const;
/** One of SELECTION_SOURCES. */
export type SelectionSource = (typeof SELECTION_SOURCES)[number];

/**
 * The bundle an event runs, fixed by its first prompt: the bundle's code, its manifest's bundle
 * hash and what selected it. Every layer of the event reuses it.
 */
export interface BundleSelection {
  /** The selected bundle's version. */
  readonly version: string;
  /** The runnable bundle (renders the prompts). */
  readonly bundle: BundleDefinition;
  /** The bundle hash of its manifest. */
  readonly bundleHash: string;
  readonly source: SelectionSource;
  /** The version that was asked for, when it is not the one selected (a fallback). */
  readonly requested?: string;
}

/**
 * The selection of `version` from `catalog` (its runnable bundle and manifest hash);
 * PROMPT_BUNDLE_NOT_IN_BUILD for a record or an unknown version. The selector falls back before it
 * calls this.
 */
export function selectionFromCatalog(
  catalog: BundleCatalog,
  version: string,
  source: SelectionSource,
): BundleSelection {
  const bundle = catalog.runnable(version);
  return { version, bundle, bundleHash: catalog.find(version)!.manifest.bundleHash, source };
}
