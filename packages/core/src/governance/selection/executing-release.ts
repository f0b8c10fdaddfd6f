import type { ReleaseRow } from "../registry/release-registry.js";

/**
 * The release of `promptKey` that executes as `status` among `rows` (one scope's releases): ACTIVE
 * is the spec's "latest ACTIVE release", the ACTIVE row approved last (rule 1 deprecates the other
 * ACTIVE rows of one template only, so two templates' versions can both be ACTIVE); a tie, or rows
 * without an approval, go to the later version name (code-unit order). CANARY and SHADOW take the
 * same rule, though the services keep one of each per scope in practice. Undefined when none.
 */
export function executingRelease(
  rows: readonly ReleaseRow[],
  promptKey: string,
  status: "ACTIVE" | "CANARY" | "SHADOW",
): ReleaseRow | undefined {
  let best: ReleaseRow | undefined;
  for (const row of rows) {
    if (row.status !== status || row.promptKey !== promptKey) continue;
    if (best === undefined || later(row, best)) best = row;
  }
  return best;
}

function later(a: ReleaseRow, b: ReleaseRow): boolean {
  const at = a.approval?.at ?? -1;
  const bt = b.approval?.at ?? -1;
  if (at !== bt) return at > bt;
  return a.promptVersion > b.promptVersion;
}
