// The inspection module (issue 32): the prompt inspector's ten checks over one sealed evidence
// package, its result store and the host's fact source, and at run time (createPromptInspectionPlugin,
// exported from the root) the inspection service, the automatic round, reinspection jobs, canary
// health and the admin API. The ports are in /ports, the result store's contract suite in /testing.

export { inspectPackage, type InspectorOptions, dictionaryVersionOf } from "./inspect-package.js";
export { noSealYet, type SealVerification, type SealVerifier } from "./checks/seal-integrity.js";
export { traceTargetOf, type TraceTarget } from "./checks/bundle-trace.js";
export type { InspectedPackage } from "./inspected-package.js";
export {
  CHECK_CODES,
  type CheckCode,
  type CheckOutcome,
  type CheckStatus,
  type FindingKind,
  type FindingLocation,
  INSPECTION_VERDICTS,
  INSPECTOR_VERSION,
  type InspectionFinding,
  type InspectionResult,
  type InspectionVerdict,
} from "./inspection-result.js";
export { InspectionResultStore } from "./results/inspection-result-store.js";
export { InMemoryInspectionResultStore } from "./results/in-memory-inspection-result-store.js";
export { PromptFactSourceVerifier } from "./prompt-fact-source-verifier.js";
