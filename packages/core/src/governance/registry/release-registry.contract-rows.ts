// The rows, heads and entries the ReleaseRegistry contract suite writes (shipped with /testing: a
// `.fixture.ts` file is left out of the build).
import type { ReleaseState } from "./release-state.js";
import type {
  NewReleaseHistoryEntry,
  ReleaseRow,
  ReleaseScopeHead,
  RollbackExecution,
} from "./release-registry.js";

/** The scope the registry fixtures write to unless told otherwise. */
export const FIXTURE_SCOPE = "PLATFORM_GLOBAL";

/** A release row of `promptVersion` with every field a start-up registration writes. */
export function releaseRow(
  promptVersion: string,
  status: ReleaseState,
  overrides: Partial<ReleaseRow> = {},
): ReleaseRow {
  return {
    registryScope: FIXTURE_SCOPE,
    promptKey: "security-decision",
    templateKey: "default",
    promptVersion,
    status,
    contractVersion: "1.0",
    artifactHash: `sha256:${promptVersion.padEnd(8, "0")}`,
    rollbackTargets: ["v18"],
    registeredAt: 1_000,
    updatedAt: 2_000,
    ...overrides,
  };
}

/** A head's writable part: `releases`, and `openExecutions` (none unless given). */
export function headOf(
  releases: readonly ReleaseRow[],
  openExecutions: readonly RollbackExecution[] = [],
): Pick<ReleaseScopeHead, "releases" | "openExecutions"> {
  return { releases, openExecutions };
}

/** An emergency stop awaiting approval, of `executionKey`. */
export function rollbackExecution(
  executionKey: string,
  overrides: Partial<RollbackExecution> = {},
): RollbackExecution {
  return {
    executionKey,
    registryScope: FIXTURE_SCOPE,
    promptKey: "security-decision",
    fromVersion: "v20",
    toVersion: "v19",
    reason: "false blocks after the v20 rollout",
    emergency: true,
    status: "AWAITING_APPROVAL",
    conditions: [
      { code: "SOURCE_NOT_EXECUTING", outcome: "PASSED" },
      { code: "POLICY_SET_MISSING", outcome: "NOT_APPLICABLE", detail: "no policy sets on this host" },
    ],
    operator: "alice",
    at: 5_000,
    approvalDeadline: 5_000 + 86_400_000,
    ...overrides,
  };
}

/** A history entry of `promptVersion` at `at`. */
export function historyEntry(
  promptVersion: string,
  at: number,
  overrides: Partial<NewReleaseHistoryEntry> = {},
): NewReleaseHistoryEntry {
  return {
    kind: "TRANSITION_APPLIED",
    registryScope: FIXTURE_SCOPE,
    promptKey: "security-decision",
    promptVersion,
    fromStatus: "SHADOW",
    toStatus: "CANARY",
    blockers: [],
    actor: "alice",
    rationale: "canary for the fraud team",
    at,
    ...overrides,
  };
}
