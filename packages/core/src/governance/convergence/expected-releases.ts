import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../registry/release-registry.js";
import { executingRelease } from "../selection/executing-release.js";

/** What the registry selector should serve for one prompt key in one reported scope. */
export interface ExpectedReleases {
  /** The latest ACTIVE release of the scope, else of PLATFORM_GLOBAL (what REGISTRY serves). */
  readonly active?: ReleaseRow | undefined;
  /** The CANARY release that runs beside it (what CANARY serves). */
  readonly canary?: ReleaseRow | undefined;
}

/** A registry read: each written scope's releases. */
export type ScopeRows = ReadonlyMap<string, readonly ReleaseRow[]>;

/**
 * What the registry selector would pick for `promptKey` in `registryScope`, by `executingRelease`
 * (the selector's own rule): the scope's ACTIVE, else PLATFORM_GLOBAL's; the scope's CANARY, and
 * PLATFORM_GLOBAL's when the scope has neither an ACTIVE nor a CANARY of its own (it falls back to
 * PLATFORM_GLOBAL whole).
 */
export function expectedReleases(
  rows: ScopeRows,
  registryScope: string,
  promptKey: string,
): ExpectedReleases {
  const own = rows.get(registryScope) ?? [];
  const global = rows.get(PLATFORM_GLOBAL_SCOPE) ?? [];
  const ownActive = executingRelease(own, promptKey, "ACTIVE");
  const ownCanary = executingRelease(own, promptKey, "CANARY");
  if (ownActive !== undefined || ownCanary !== undefined || registryScope === PLATFORM_GLOBAL_SCOPE)
    return { active: ownActive ?? executingRelease(global, promptKey, "ACTIVE"), canary: ownCanary };
  return {
    active: executingRelease(global, promptKey, "ACTIVE"),
    canary: executingRelease(global, promptKey, "CANARY"),
  };
}

/** Every prompt key with an ACTIVE or CANARY release in `rows` (one scope's), in name order. */
export function executingPromptKeys(rows: readonly ReleaseRow[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) if (row.status === "ACTIVE" || row.status === "CANARY") keys.add(row.promptKey);
  return [...keys].sort();
}

/** When `row` last changed: its `updatedAt`, or its approval when that is later. */
export function changedAt(row: ReleaseRow): number {
  return Math.max(row.updatedAt, row.approval?.at ?? 0);
}
