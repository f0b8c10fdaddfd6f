import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";

/**
 * Where a selection came from. CONFIGURATION and BUILD_DEFAULT are chosen today; REGISTRY, CANARY
 * and SHADOW are for the release registry.
 */
export const SELECTION_SOURCES = ["CONFIGURATION", "BUILD_DEFAULT", "REGISTRY", "CANARY", "SHADOW"] as const;
/** One of SELECTION_SOURCES. */
export type SelectionSource = (typeof SELECTION_SOURCES)[number];

/** The bundle an event's prompts are rendered with, fixed by the event's first prompt. */
export interface BundleSelection {
  readonly version: string;
  /** The bundle hash of its manifest. */
  readonly bundleHash: string;
  readonly source: SelectionSource;
  /** The runnable bundle (renders the prompts). */
  readonly bundle: BundleDefinition;
  /** The version that was asked for, when it is not the one selected (a fallback). */
  readonly requested?: string;
}
