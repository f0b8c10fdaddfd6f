// @keyward/core/governance: prompt governance (docs/prompt-governance.md): the plugin that brings the
// release registry, its gate, rollbacks and emergency stops, and what the `platform` command needs of
// it: the evaluation of a bundle as this machine's configuration decides, and the run record it posts.
// The ports (`ReleaseRegistry`, `ReleaseEvidenceLedger`) are in /ports, their contract suites in /testing.

export { promptGovernancePlugin } from "./governance-plugin.js";
export { evaluateConfiguredBundle } from "./evaluation/configured-evaluation.js";
export type { EvaluationRunRecord } from "./evaluation/evaluation-run-record.js";
