import type { BundleSelection, SelectedRelease } from "../../decisions/engine/bundle-selection.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { executingRelease } from "../selection/executing-release.js";
import type { ReleaseSnapshots } from "../selection/release-snapshots.js";
import type { RequestScopeResolver } from "../selection/request-scope-resolver.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../registry/release-registry.js";

/** Why a sampled decision has no shadow run. */
export type ShadowLookupMiss = "no-snapshot" | "no-shadow-release" | "not-in-build" | "scope-error";

/** The shadow selection of a decision, or why there is none (and, not in build, which version). */
export type ShadowLookup =
  | { readonly selection: BundleSelection }
  | { readonly miss: ShadowLookupMiss; readonly version?: string };

/** What the lookup reads: the registry as last read, the request's scope, the build's bundles. */
export interface ShadowReleaseLookupOptions {
  readonly snapshots: ReleaseSnapshots;
  readonly scopes: RequestScopeResolver;
  readonly catalog: BundleCatalog;
}

/**
 * Finds the SHADOW release a decision's copy runs (shadow run rule 1: whichever selector decided
 * the decision): the prompt key of the enforced bundle, in the scope whose releases the request
 * runs (its own scope when it has an ACTIVE release of the key, else PLATFORM_GLOBAL, as the
 * registry selector chooses), that scope's SHADOW row. A row whose version this build does not run,
 * or whose artifact hash is not this build's manifest of it, is `not-in-build` (rule 5: skipped).
 * Synchronous, from memory; never throws.
 */
export class ShadowReleaseLookup {
  constructor(private readonly o: ShadowReleaseLookupOptions) {}

  /** The shadow selection for a decision that enforced `enforced` on `event`. */
  find(event: DecisionEvent, enforced: Pick<BundleSelection, "version">): ShadowLookup {
    const snapshot = this.o.snapshots.current();
    if (snapshot === undefined) return { miss: "no-snapshot" };
    const promptKey = this.o.catalog.find(enforced.version)?.manifest.descriptor.promptKey;
    if (promptKey === undefined) return { miss: "no-shadow-release" };
    let scope: string;
    try {
      scope = this.o.scopes.resolve(event).registryScope.trim() || PLATFORM_GLOBAL_SCOPE;
    } catch {
      return { miss: "scope-error" };
    }
    let rows = snapshot.scopes.get(scope) ?? [];
    if (executingRelease(rows, promptKey, "ACTIVE") === undefined)
      rows = snapshot.scopes.get(PLATFORM_GLOBAL_SCOPE) ?? [];
    const row = executingRelease(rows, promptKey, "SHADOW");
    if (row === undefined) return { miss: "no-shadow-release" };
    const entry = this.o.catalog.find(row.promptVersion);
    if (entry?.bundle === undefined || entry.manifest.bundleHash !== row.artifactHash)
      return { miss: "not-in-build", version: row.promptVersion };
    return {
      selection: Object.freeze({
        version: row.promptVersion,
        bundle: entry.bundle,
        bundleHash: row.artifactHash,
        source: "SHADOW" as const,
        release: releaseOf(row),
      }),
    };
  }
}

function releaseOf(row: ReleaseRow): SelectedRelease {
  return Object.freeze({
    registryScope: row.registryScope,
    promptKey: row.promptKey,
    promptVersion: row.promptVersion,
    status: "SHADOW" as const,
    contractVersion: row.contractVersion,
    ...(row.approval === undefined ? {} : { approvedAt: row.approval.at, approvedBy: row.approval.by }),
  });
}
