import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";

/**
 * Where a bundle selection came from (the spec's selection sources): CONFIGURATION and
 * BUILD_DEFAULT from the configuration selector; REGISTRY, CANARY and BUILD_DEFAULT (a fallback)
 * from the registry selector; SHADOW for a shadow run's bundle.
 */
export const SELECTION_SOURCES = ["BUILD_DEFAULT", "CONFIGURATION", "REGISTRY", "CANARY", "SHADOW"] as const;
/** One of SELECTION_SOURCES. */
export type SelectionSource = (typeof SELECTION_SOURCES)[number];

/** How a run's result is used: ENFORCE (the decision in force) or SHADOW (recorded only). */
export type DecisionStage = "ENFORCE" | "SHADOW";

/** The registry release a selection ran, as the registry row said when the selector read it. */
export interface SelectedRelease {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
  /** The row's state when read: ACTIVE (REGISTRY), CANARY or SHADOW. */
  readonly status: "ACTIVE" | "CANARY" | "SHADOW";
  /** The row's contract version. */
  readonly contractVersion: string;
  /** When the row's last state change was approved (epoch milliseconds), and by whom. */
  readonly approvedAt?: number | undefined;
  readonly approvedBy?: string | undefined;
}

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
  /** The registry release behind a REGISTRY, CANARY or SHADOW selection. */
  readonly release?: SelectedRelease | undefined;
}

/**
 * What one instance serves for one prompt key in one scope by one source (the heartbeat reports
 * these; the convergence report compares them with the registry).
 */
export interface ServedBundle {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
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
  return { version, bundle, bundleHash: catalog.find(version)!.manifest.bundleHash, source };
}
