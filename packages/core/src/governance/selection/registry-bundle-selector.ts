import { EventSelections } from "../../decisions/pipeline/event-selections.js";
import type { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import type {
  BundleSelection,
  SelectedRelease,
  ServedBundle,
  SelectionSource,
} from "../../decisions/engine/bundle-selection.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import { DECISIONS_AUDIT } from "../../decisions/pipeline/decisions-audit.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../registry/release-registry.js";
import { canaryMembership } from "./canary-membership.js";
import { executingRelease } from "./executing-release.js";
import type { ReleaseSnapshot, ReleaseSnapshots, ResourceFamilyOf } from "./release-snapshots.js";
import type { RequestScopeResolver } from "./request-scope-resolver.js";
import { pathOf } from "./resource-family-index.js";

/** Why the registry selector ran the build default (the audit record's `data.why`). */
export type RegistryFallbackReason =
  | "nothing-chose"
  | "registry-not-read"
  | "registry-unreadable"
  | "unknown"
  | "record-only"
  | "hash-mismatch"
  | "selector-failed";

/** What a RegistryBundleSelector reads. */
export interface RegistryBundleSelectorOptions {
  readonly catalog: BundleCatalog;
  readonly snapshots: ReleaseSnapshots;
  readonly resolver: RequestScopeResolver;
  /** The request's resource family, asked only for a CANARY release narrowed by families. */
  readonly familyOf: ResourceFamilyOf;
  readonly audit: AuditSink;
  readonly logger: Logger;
}

/** The releases a request's scope executes: its CANARY (if any) and the ACTIVE it falls back to. */
interface ScopeReleases {
  readonly canary: ReleaseRow | undefined;
  readonly active: ReleaseRow | undefined;
}

/**
 * The registry selector (selector=REGISTRY): the latest ACTIVE release of the build default's prompt
 * key in the request's scope (from the RequestScopeResolver), else PLATFORM_GLOBAL's (REGISTRY); the
 * scope's CANARY release for a request inside its share and targets (CANARY). The CANARY release is
 * the request's scope's when that scope executes anything of the key, else PLATFORM_GLOBAL's (a scope
 * with no release of its own runs PLATFORM_GLOBAL's rollout whole). Reads the ReleaseSnapshots only
 * (synchronous, from memory). It answers the build default (BUILD_DEFAULT), recorded once per version
 * or reason in the log and as DECISIONS_AUDIT.bundleFallback, when nothing chose, the registry was
 * not read yet or is unreadable past the cache TTL, the chosen version is not run by this build, or
 * anything threw; it never throws. The first selection of an event fixes its bundle.
 */
export class RegistryBundleSelector implements BundleSelector {
  private readonly byEvent = new EventSelections();
  private readonly reported = new Set<string>();
  private readonly byRow = new WeakMap<ReleaseRow, BundleSelection>();
  private readonly promptKey: string;
  private readonly fallback: BundleSelection;
  private everRead = false;

  constructor(private readonly o: RegistryBundleSelectorOptions) {
    const version = o.catalog.buildDefault;
    const entry = o.catalog.find(version);
    this.promptKey = entry?.manifest.descriptor.promptKey ?? "";
    this.fallback = Object.freeze({
      version,
      bundleHash: entry?.manifest.bundleHash ?? "",
      source: "BUILD_DEFAULT" as const,
      bundle: o.catalog.runnable(version),
    });
  }

  /** The bundle of `event` (fixed by its first call). Never throws. */
  select(event: DecisionEvent): BundleSelection {
    const known = this.byEvent.get(event.id);
    if (known !== undefined) return known;
    let selection: BundleSelection;
    try {
      selection = this.choose(event);
    } catch (error) {
      selection = this.buildDefault("selector-failed", undefined, { error: String(error).slice(0, 200) });
    }
    this.byEvent.remember(event.id, selection);
    return selection;
  }

  /**
   * Per scope of the snapshot, what it serves for the prompt key: its ACTIVE release (REGISTRY) and
   * its CANARY release (CANARY), each as BUILD_DEFAULT when this build does not run it; the build
   * default in PLATFORM_GLOBAL when PLATFORM_GLOBAL has no ACTIVE release or no snapshot is served.
   */
  serving(): readonly ServedBundle[] {
    const snapshot = this.o.snapshots.current();
    if (snapshot === undefined) return [this.served(PLATFORM_GLOBAL_SCOPE, this.fallback)];
    const out = new Map<string, ServedBundle>();
    const add = (scope: string, row: ReleaseRow | undefined, source: SelectionSource) => {
      if (row === undefined) return;
      const entry = this.o.catalog.find(row.promptVersion);
      const served: ServedBundle =
        entry?.bundle === undefined
          ? this.served(scope, this.fallback)
          : this.served(scope, { version: row.promptVersion, bundleHash: entry.manifest.bundleHash, source });
      out.set(`${scope}\u0000${served.source}`, served);
    };
    for (const [scope, rows] of snapshot.scopes) {
      add(scope, executingRelease(rows, this.promptKey, "ACTIVE"), "REGISTRY");
      add(scope, executingRelease(rows, this.promptKey, "CANARY"), "CANARY");
    }
    if (![...out.values()].some((s) => s.registryScope === PLATFORM_GLOBAL_SCOPE && s.source === "REGISTRY"))
      out.set(
        `${PLATFORM_GLOBAL_SCOPE}\u0000BUILD_DEFAULT`,
        this.served(PLATFORM_GLOBAL_SCOPE, this.fallback),
      );
    return [...out.values()];
  }

  private choose(event: DecisionEvent): BundleSelection {
    const snapshot = this.o.snapshots.current();
    if (snapshot === undefined)
      return this.buildDefault(this.everRead ? "registry-unreadable" : "registry-not-read", undefined);
    this.everRead = true;
    const scope = this.o.resolver.resolve(event);
    const registryScope =
      typeof scope?.registryScope === "string" && scope.registryScope.trim() !== ""
        ? scope.registryScope
        : PLATFORM_GLOBAL_SCOPE;
    const { canary, active } = this.releasesOf(snapshot, registryScope);
    if (canary !== undefined && this.inCanary(canary, event, scope?.tenant)) return this.selected(canary);
    if (active !== undefined) return this.selected(active);
    return this.buildDefault("nothing-chose", undefined);
  }

  private releasesOf(snapshot: ReleaseSnapshot, registryScope: string): ScopeReleases {
    const key = this.promptKey;
    const own = snapshot.scopes.get(registryScope) ?? [];
    const global = snapshot.scopes.get(PLATFORM_GLOBAL_SCOPE) ?? [];
    const ownActive = executingRelease(own, key, "ACTIVE");
    const ownCanary = executingRelease(own, key, "CANARY");
    if (ownActive !== undefined || ownCanary !== undefined)
      return { canary: ownCanary, active: ownActive ?? executingRelease(global, key, "ACTIVE") };
    return {
      canary: executingRelease(global, key, "CANARY"),
      active: executingRelease(global, key, "ACTIVE"),
    };
  }

  private inCanary(row: ReleaseRow, event: DecisionEvent, tenant: unknown): boolean {
    const families = row.canaryResourceFamilies;
    return canaryMembership(row, {
      userId: event.userId,
      sessionId: event.sessionHandle,
      eventId: event.id,
      tenant: typeof tenant === "string" ? tenant : undefined,
      resourceAddress: event.target === undefined ? undefined : pathOf(event.target),
      // Worked out only when the release is narrowed by families: nothing else needs it.
      resourceId: families?.length ? this.o.familyOf(event.method, event.target) : undefined,
    }).member;
  }

  /** The selection of a REGISTRY or CANARY row (one object per row), or the build default. */
  private selected(row: ReleaseRow): BundleSelection {
    const known = this.byRow.get(row);
    if (known !== undefined) return known;
    const entry = this.o.catalog.find(row.promptVersion);
    if (entry?.bundle === undefined)
      return this.buildDefault(entry === undefined ? "unknown" : "record-only", row.promptVersion, {
        registryScope: row.registryScope,
      });
    // Another build of this version (another instance registered its hash): this code is not the
    // release the gate passed.
    if (entry.manifest.bundleHash !== row.artifactHash)
      return this.buildDefault("hash-mismatch", row.promptVersion, { registryScope: row.registryScope });
    const selection: BundleSelection = Object.freeze({
      version: row.promptVersion,
      bundle: entry.bundle,
      bundleHash: entry.manifest.bundleHash,
      source: row.status === "CANARY" ? ("CANARY" as const) : ("REGISTRY" as const),
      release: releaseOf(row),
    });
    this.byRow.set(row, selection);
    return selection;
  }

  private buildDefault(
    why: RegistryFallbackReason,
    requested: string | undefined,
    extra: Record<string, unknown> = {},
  ): BundleSelection {
    this.report(why, requested, extra);
    return requested === undefined ? this.fallback : Object.freeze({ ...this.fallback, requested });
  }

  private report(
    why: RegistryFallbackReason,
    requested: string | undefined,
    extra: Record<string, unknown>,
  ): void {
    const key = requested === undefined ? `reason:${why}` : `version:${requested}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const fields = {
      why,
      ...(requested === undefined ? {} : { requested }),
      ran: this.fallback.version,
      ...extra,
    };
    this.o.logger.warn("registry selector ran the build default", fields);
    try {
      this.o.audit.record({
        type: DECISIONS_AUDIT.bundleFallback,
        outcome: "info",
        principal: "system",
        data: fields,
      });
    } catch {
      // The sink must not stop a decision.
    }
  }

  private served(
    registryScope: string,
    s: Pick<BundleSelection, "version" | "bundleHash" | "source">,
  ): ServedBundle {
    return {
      registryScope,
      promptKey: this.promptKey,
      promptVersion: s.version,
      bundleHash: s.bundleHash,
      source: s.source,
    };
  }
}

/** The SelectedRelease of a row, as read. */
function releaseOf(row: ReleaseRow): SelectedRelease {
  return Object.freeze({
    registryScope: row.registryScope,
    promptKey: row.promptKey,
    promptVersion: row.promptVersion,
    status: row.status === "CANARY" ? "CANARY" : "ACTIVE",
    contractVersion: row.contractVersion,
    ...(row.approval === undefined ? {} : { approvedAt: row.approval.at, approvedBy: row.approval.by }),
  });
}
