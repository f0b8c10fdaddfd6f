import type { EvidencePackage } from "../decisions/evidence/sealed-evidence-store.js";
import type { SealedHeader } from "../decisions/evidence/sealed-package.js";

/**
 * An evidence package as the inspector reads it: the package (its prompts, context and metadata,
 * the deciding answer's reasons among them when they were sealed) and, for a package read from the
 * sealed-evidence store, its seal: the clear header and the package hash the chain holds.
 */
export interface InspectedPackage extends EvidencePackage {
  /** Absent: the package was never sealed (SEAL_INTEGRITY NOT_SEALED). */
  readonly seal?: { readonly header: SealedHeader; readonly packageHash: string } | undefined;
}
