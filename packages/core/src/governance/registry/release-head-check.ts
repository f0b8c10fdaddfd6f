import { PlatformError } from "../../kernel/platform-error.js";
import type { ReleaseScopeHead } from "./release-registry.js";
import { RELEASE_STATES } from "./release-state.js";

const STATES = new Set<string>(RELEASE_STATES);

function invalid(message: string): never {
  throw new PlatformError("VALIDATION_FAILED", message, { details: { fields: ["releases"] } });
}

/**
 * The checks every ReleaseRegistry makes before it writes a head (shared by the in-memory and
 * MongoDB adapters): one row per prompt key and version, every row of the head's scope, canonical
 * states, canary share 0..100, and at most one ACTIVE release per prompt key and template (rule 1).
 * VALIDATION_FAILED names the first problem; nothing is written.
 */
export function checkReleaseHead(
  registryScope: string,
  next: Pick<ReleaseScopeHead, "releases" | "openExecutions">,
): void {
  const versions = new Set<string>();
  const active = new Set<string>();
  for (const row of next.releases) {
    if (row.registryScope !== registryScope)
      invalid(`release ${row.promptVersion} belongs to scope ${row.registryScope}, not ${registryScope}`);
    const version = `${row.promptKey}\u0000${row.promptVersion}`;
    if (versions.has(version)) invalid(`release ${row.promptVersion} appears twice`);
    versions.add(version);
    if (!STATES.has(row.status)) invalid(`release ${row.promptVersion} has no canonical state`);
    const share = row.canaryPercent;
    if (share !== undefined && !(Number.isInteger(share) && share >= 0 && share <= 100))
      invalid(`release ${row.promptVersion}: canaryPercent must be an integer from 0 to 100`);
    if (row.status !== "ACTIVE") continue;
    const family = `${row.promptKey}\u0000${row.templateKey}`;
    if (active.has(family))
      invalid(`two ACTIVE releases of ${row.promptKey} / ${row.templateKey} in scope ${registryScope}`);
    active.add(family);
  }
  for (const e of next.openExecutions)
    if (e.registryScope !== registryScope) invalid(`execution ${e.executionKey} belongs to another scope`);
}

/** VALIDATION_FAILED unless `limit` is an integer from 1 to `max`. */
export function checkListLimit(limit: number, max: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new PlatformError("VALIDATION_FAILED", `limit must be an integer from 1 to ${max}`, {
      details: { fields: ["limit"] },
    });
}
