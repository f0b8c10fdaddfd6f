import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../decisions/decisions-error-codes.js";

/**
 * The governance module's error codes: the release registry, its gate, rollbacks and evidence. A
 * blocked transition and a refused rollback answer 422 with their receipt, which carries the code
 * as an error answer does, beside the blockers or conditions.
 */
export const GOVERNANCE_ERROR_CODES = {
  RELEASE_NOT_FOUND: {
    status: 404,
    meaning: "No registry release of that scope, prompt key and version.",
    remedy: "List the releases (`platform releases list`) and use a registered version.",
  },
  RELEASE_TRANSITION_BLOCKED: {
    status: 422,
    meaning:
      "The release gate blocked the transition; nothing changed. The answer is the receipt, whose `blockers` name each unmet condition.",
    remedy:
      "Record the missing evidence for this bundle hash (docs/prompt-governance.md), or choose a target the state allows.",
  },
  ROLLBACK_REFUSED: {
    status: 422,
    meaning:
      "A rollback condition failed; nothing changed. The answer is the execution, whose `conditions` say which failed.",
    remedy: "Roll back from the executing version to a target its manifest declares and this build runs.",
  },
  ROLLBACK_EXECUTION_NOT_FOUND: {
    status: 404,
    meaning: "No rollback execution has that key.",
    remedy: "Use the `executionKey` (RBX-…) the rollback answered.",
  },
  ROLLBACK_EXECUTION_NOT_OPEN: {
    status: 409,
    meaning:
      "The emergency stop is not waiting for approval (already ratified or reverted, or not an emergency stop).",
    remedy: "Read the release history; nothing is left to approve.",
  },
  APPROVAL_BY_OPERATOR_FORBIDDEN: {
    status: 403,
    meaning: "The administrator who ran an emergency stop cannot approve it.",
    remedy: "Another administrator approves it, signed in as themselves.",
  },
  RELEASE_REGISTRY_BUSY: {
    status: 409,
    meaning:
      "Other administrators changed the scope at the same moment, several times in a row; nothing changed.",
    remedy: "Read the releases again and retry.",
  },
  EVIDENCE_INVALID: {
    status: 400,
    meaning:
      "The evidence does not have its kind's shape, or is not bound to a bundle this build runs with its manifest's hash; `issues` says which.",
    remedy: "Fix the fields named in `issues` (docs/prompt-governance.md lists each kind's schema).",
  },
  EVALUATION_RECORD_INCONSISTENT: {
    status: 422,
    meaning:
      "An evaluation run record does not hold together: its test-set hash is not this build's, its summary is not what its cases give, or its bundle hash is not the manifest's; `reasons` says which.",
    remedy: "Record evaluations only with `platform bundles evaluate`, run against this build's test set.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the governance codes that carry any. */
export type GovernanceErrorDetails = {
  RELEASE_NOT_FOUND: { registryScope: string; promptKey: string; promptVersion: string };
  EVIDENCE_INVALID: { issues: readonly string[] };
  EVALUATION_RECORD_INCONSISTENT: { reasons: readonly string[] };
};

/** The governance codes mapped to their details types (merged into PlatformErrorCodes). */
export type GovernanceErrorCodes = ErrorCodesOf<typeof GOVERNANCE_ERROR_CODES, GovernanceErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends GovernanceErrorCodes {}
}
