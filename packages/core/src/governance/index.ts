// @keyward/core/governance: what the `platform` command needs of prompt governance today: the
// evaluation of a bundle as this machine's configuration decides, and the run record it posts. The
// lead widens this face when the module's plugin, services and ports are exported
// (docs/prompt-governance.md describes the module).

export { evaluateConfiguredBundle } from "./evaluation/configured-evaluation.js";
export type { EvaluationRunRecord } from "./evaluation/evaluation-run-record.js";
