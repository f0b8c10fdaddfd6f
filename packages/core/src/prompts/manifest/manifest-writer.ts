import type { BundleDefinition } from "../bundles/bundle-definition.js";
import { elementSources, type GoldenInputs } from "../bundles/element-sources.js";
import { bundleHash } from "../hashing/bundle-hash.js";
import type { BundleManifest } from "./bundle-manifest.js";
import { recordsOf } from "./manifest-checks.js";

/** The manifest a runnable bundle's code implies: its fields, its current element records and their hash. */
export function manifestFor(bundle: BundleDefinition, inputs: GoldenInputs): BundleManifest {
  const elements = recordsOf(elementSources(bundle, inputs));
  return {
    manifestFormat: 1,
    descriptor: bundle.descriptor,
    layout: bundle.layout,
    parentVersion: bundle.parentVersion,
    vocabularyVersion: bundle.vocabularyVersion,
    compatibleVocabularyVersions: bundle.compatibleVocabularyVersions,
    rollbackTargets: bundle.rollbackTargets,
    goldenInputs: bundle.goldenInputs,
    ...(bundle.evaluationScenarioFamilies
      ? { evaluationScenarioFamilies: bundle.evaluationScenarioFamilies }
      : {}),
    elements,
    bundleHash: bundleHash(elements),
  };
}

/** The file text of a manifest: two-space JSON and a final newline, so rewrites diff cleanly. */
export function manifestText(manifest: BundleManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
