// Test support of run-time selection: registry rows made from the committed manifests, and a
// registry selector over the real ReleaseCache and in-memory registry, counters and bus, on a
// ManualClock.
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryChangeCounters } from "../../kernel/coordination/in-memory-change-counters.js";
import { InProcessEventBus } from "../../kernel/event-bus.js";
import type { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { buildCatalog, KEY, manifest, manifestLike, V20 } from "../governance.fixture.js";
import { InMemoryReleaseRegistry } from "../registry/in-memory-release-registry.js";
import type { ReleaseRegistry, ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseState } from "../registry/release-state.js";
import { RegistryBundleSelector } from "./registry-bundle-selector.js";
import { ReleaseCache } from "./release-cache.js";
import type { ResourceFamilyOf } from "./release-snapshots.js";
import { platformGlobalScopeResolver, type RequestScopeResolver } from "./request-scope-resolver.js";

/** A registry row of `version` in `scope`, from the catalog's manifest (or one like v20's). */
export function rowOf(
  catalog: BundleCatalog,
  scope: string,
  version: string,
  status: ReleaseState,
  extra: Partial<ReleaseRow> = {},
): ReleaseRow {
  const m = catalog.find(version)?.manifest ?? manifestLike(manifest(V20), { promptVersion: version });
  return {
    registryScope: scope,
    promptKey: KEY,
    templateKey: m.descriptor.templateKey,
    promptVersion: version,
    status,
    contractVersion: m.descriptor.contractVersion,
    artifactHash: m.bundleHash,
    rollbackTargets: m.rollbackTargets,
    registeredAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

/** Options of `selectorHarness`. */
export interface SelectorHarnessOptions {
  readonly catalog?: BundleCatalog;
  readonly resolver?: RequestScopeResolver;
  readonly familyOf?: ResourceFamilyOf;
  readonly registry?: ReleaseRegistry;
  readonly counters?: InMemoryChangeCounters;
  readonly clock?: ManualClock;
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
}

/** A RegistryBundleSelector over a ReleaseCache of an in-memory registry (or `registry`). */
export function selectorHarness(options: SelectorHarnessOptions = {}) {
  const catalog = options.catalog ?? buildCatalog();
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 9, 1));
  const registry = options.registry ?? new InMemoryReleaseRegistry();
  const counters = options.counters ?? new InMemoryChangeCounters();
  const events = new InProcessEventBus();
  const logger = new RecordingLogger();
  const audit = new InMemoryAuditSink(10_000, clock);
  const outage = { down: false, reads: 0 };
  const cache = new ReleaseCache({
    // The real registry, unreachable while `outage.down`.
    registry: {
      heads: () => {
        outage.reads++;
        return outage.down ? Promise.reject(new Error("registry unreachable")) : registry.heads();
      },
    },
    counters,
    events,
    clock,
    logger,
    ttlMs: options.ttlMs ?? 60_000,
    pollIntervalMs: options.pollIntervalMs ?? 5_000,
  });
  const selector = new RegistryBundleSelector({
    catalog,
    snapshots: cache,
    resolver: options.resolver ?? platformGlobalScopeResolver,
    familyOf: options.familyOf ?? (() => undefined),
    audit,
    logger,
  });
  let n = 0;
  return {
    catalog,
    clock,
    registry,
    counters,
    events,
    logger,
    audit,
    cache,
    selector,
    /** `down: true` makes every read of the heads fail; `reads` counts the reads tried. */
    outage,
    /** Writes `rows` as the scope's head (replacing it). */
    async put(scope: string, rows: readonly ReleaseRow[]): Promise<void> {
      const head = await registry.head(scope);
      const next = await registry.replaceHead(scope, head.revision, { releases: rows, openExecutions: [] });
      if (next === undefined) throw new Error("lost a race in a test");
    },
    /** A fresh event (a new id each call) with `fields`. */
    event(fields: Partial<DecisionEvent> = {}): DecisionEvent {
      return { id: `evt-${++n}`, kind: "REPEATED_DENIALS", at: clock.now(), ...fields };
    },
    /** The fallback audit records' data. */
    fallbacks() {
      return audit
        .events()
        .filter((e) => e.type === "decision.bundle.fallback")
        .map((e) => e.data);
    },
  };
}
