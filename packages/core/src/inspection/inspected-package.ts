import type { DecisionReason } from "../decisions/inspector/response-inspector.js";
import type { EvidenceMetadata, EvidencePackage } from "../decisions/evidence/sealed-evidence-store.js";

/**
 * An evidence package as the inspector reads it: today's package, plus the decision's reasons when
 * the package seals them (REASON_MATCH needs them; a package without them is unverifiable there).
 */
export interface InspectedPackage extends EvidencePackage {
  readonly metadata: EvidenceMetadata & { readonly reasons?: readonly DecisionReason[] | undefined };
}
