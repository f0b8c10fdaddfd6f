import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";

/** Where a bundle selection came from (the selection sources of the governance document). */
export const SELECTION_SOURCES = ["BUILD_DEFAULT", "CONFIGURATION", "REGISTRY", "CANARY", "SHADOW"] as const;
/** One of SELECTION_SOURCES. */
export type SelectionSource = (typeof SELECTION_SOURCES)[number];

/**
 * The bundle an event runs, fixed by its first prompt: the bundle's code, its manifest's bundle
 * hash and what selected it. Every layer of the event reuses it.
 */
export interface BundleSelection {
  readonly bundle: BundleDefinition;
  readonly bundleHash: string;
  readonly source: SelectionSource;
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
  return { bundle, bundleHash: catalog.find(version)!.manifest.bundleHash, source };
}
