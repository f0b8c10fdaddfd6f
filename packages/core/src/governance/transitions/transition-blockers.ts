import type { ReleaseRow, ReleaseScopeHead } from "../registry/release-registry.js";
import { isAllowedReleaseTransition, type ReleaseState } from "../registry/release-state.js";
import { GATE_BLOCKER_CODES, type GateBlocker } from "../release-governance.js";

/** The targets that need a declared rollback target (the spec's "Gate blockers by target"). */
const NEEDS_ROLLBACK_TARGET: ReadonlySet<ReleaseState> = new Set(["CANARY", "ACTIVE", "DEPRECATED"]);

/**
 * The blockers the registry itself decides: ILLEGAL_STATE_TRANSITION (the table; alone, as no other
 * check means anything then), NO_OTHER_ACTIVE_RELEASE (rule 2: to DEPRECATED only while another
 * release of the scope and prompt key is ACTIVE) and ROLLBACK_TARGET_MISSING (to CANARY, ACTIVE or
 * DEPRECATED when the manifest declares no rollback target other than itself; whether the target is
 * in the build is the rollback's question, not the gate's). With `reshare` (the request names a
 * canary share), CANARY → CANARY is allowed too: the re-share of a running canary.
 */
export function registryBlockers(
  head: ReleaseScopeHead,
  row: ReleaseRow,
  target: ReleaseState,
  reshare = false,
): GateBlocker[] {
  const allowed = isAllowedReleaseTransition(row.status, target) || (reshare && row.status === "CANARY");
  if (!allowed)
    return [
      {
        code: "ILLEGAL_STATE_TRANSITION",
        detail: `${row.status} cannot move to ${target} (allowed: see the transition table)`,
      },
    ];
  const blockers: GateBlocker[] = [];
  const otherActive = head.releases.some(
    (r) => r.status === "ACTIVE" && r.promptKey === row.promptKey && r.promptVersion !== row.promptVersion,
  );
  if (target === "DEPRECATED" && !otherActive)
    blockers.push({
      code: "NO_OTHER_ACTIVE_RELEASE",
      detail: `no other release of ${row.promptKey} is ACTIVE in scope ${row.registryScope}`,
    });
  if (NEEDS_ROLLBACK_TARGET.has(target) && !row.rollbackTargets.some((v) => v !== row.promptVersion))
    blockers.push({
      code: "ROLLBACK_TARGET_MISSING",
      detail: `the manifest of ${row.promptVersion} declares no rollback target`,
    });
  return blockers;
}

/** `blockers` once per code, in GATE_BLOCKER_CODES order (the first detail of a code kept). */
export function orderedBlockers(blockers: readonly GateBlocker[]): GateBlocker[] {
  const byCode = new Map<string, GateBlocker>();
  for (const b of blockers) if (!byCode.has(b.code)) byCode.set(b.code, b);
  return GATE_BLOCKER_CODES.flatMap((code) => {
    const found = byCode.get(code);
    return found === undefined ? [] : [found];
  });
}
