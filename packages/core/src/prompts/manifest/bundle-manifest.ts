import type { GovernanceDescriptor, PromptLayout } from "../bundles/bundle-definition.js";
import type { ElementRecords } from "../hashing/bundle-hash.js";

/** A manifest file's content (`prompt-bundles/manifests/<promptKey>/<version>.json`), schema-valid. */
export interface BundleManifest {
  readonly manifestFormat: 1;
  readonly descriptor: GovernanceDescriptor;
  readonly layout: PromptLayout;
  readonly parentVersion: string | null;
  readonly vocabularyVersion: string;
  readonly compatibleVocabularyVersions: readonly string[];
  readonly rollbackTargets: readonly string[];
  readonly goldenInputs: readonly string[];
  readonly evaluationScenarioFamilies?: readonly string[];
  readonly elements: ElementRecords;
  readonly bundleHash: string;
}

/** The name two manifests must not share with different hashes: `<promptKey>@<promptVersion>`. */
export function manifestName(manifest: Pick<BundleManifest, "descriptor">): string {
  return `${manifest.descriptor.promptKey}@${manifest.descriptor.promptVersion}`;
}
