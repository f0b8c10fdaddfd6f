import { performance } from "node:perf_hooks";
import { loadBundleCatalog } from "@keyward/core/prompts";
import { ManualClock } from "@keyward/core/testing";
import { OfflineAnalyst } from "../../../packages/core/src/decisions/analyst/offline-analyst.js";
import { LayeredDecisionEngine } from "../../../packages/core/src/decisions/engine/layered-decision-engine.js";
import type { DecisionEvent } from "../../../packages/core/src/decisions/pipeline/decision-event.js";
import {
  type BundleSelector,
  ConfigurationBundleSelector,
} from "../../../packages/core/src/decisions/pipeline/bundle-selector.js";
import { RegistryBundleSelector } from "../../../packages/core/src/governance/selection/registry-bundle-selector.js";
import { ReleaseCache } from "../../../packages/core/src/governance/selection/release-cache.js";
import { platformGlobalScopeResolver } from "../../../packages/core/src/governance/selection/request-scope-resolver.js";
import { InMemoryReleaseRegistry } from "../../../packages/core/src/governance/registry/in-memory-release-registry.js";
import type { ReleaseRow } from "../../../packages/core/src/governance/registry/release-registry.js";
import { InMemoryAuditSink } from "../../../packages/core/src/kernel/in-memory-audit-sink.js";
import { InMemoryChangeCounters } from "../../../packages/core/src/kernel/coordination/in-memory-change-counters.js";
import { InProcessEventBus } from "../../../packages/core/src/kernel/event-bus.js";
import type { Logger } from "../../../packages/core/src/kernel/logger.js";
import type { BundleCatalog } from "../../../packages/core/src/prompts/manifest/bundle-catalog.js";
import { inputs } from "./decisions-measure.js";

/** Decisions per second, and the selection's own cost, with one selector. */
export interface SelectionRow {
  selector: string;
  decisionsPerSecond: number;
  /** Median over the runs of the mean `select` time, µs. */
  selectUs: number;
  /** Share of decisions that ran each version. */
  versions: Record<string, number>;
}

const V19 = "2026.07.30-v19";
const V20 = "2026.09.15-v20";
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function row(
  catalog: BundleCatalog,
  version: string,
  status: "ACTIVE" | "CANARY",
  extra: Partial<ReleaseRow> = {},
): ReleaseRow {
  const m = catalog.find(version)!.manifest;
  return {
    registryScope: "PLATFORM_GLOBAL",
    promptKey: m.descriptor.promptKey,
    templateKey: m.descriptor.templateKey,
    promptVersion: version,
    status,
    contractVersion: m.descriptor.contractVersion,
    artifactHash: m.bundleHash,
    rollbackTargets: m.rollbackTargets,
    approval: { by: "bench", at: 1, rationale: "bench" },
    registeredAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

/** The registry selector over a read ReleaseCache of an in-memory registry holding `rows`. */
async function registrySelector(catalog: BundleCatalog, rows: ReleaseRow[]): Promise<BundleSelector> {
  const registry = new InMemoryReleaseRegistry();
  await registry.replaceHead("PLATFORM_GLOBAL", 0, { releases: rows, openExecutions: [] });
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const cache = new ReleaseCache({
    registry,
    counters: new InMemoryChangeCounters(),
    events: new InProcessEventBus(),
    clock,
    logger: quiet,
    ttlMs: 60_000,
    pollIntervalMs: 0,
  });
  await cache.refresh();
  return new RegistryBundleSelector({
    catalog,
    snapshots: cache,
    resolver: platformGlobalScopeResolver,
    familyOf: () => undefined,
    audit: new InMemoryAuditSink(1_000, clock),
    logger: quiet,
  });
}

/**
 * Whole decisions (select, then the layered engine over the built-in analyst on the demo's sign-in)
 * for `durationMs` per run, `runs` runs per selector, interleaved; each event is new (its own id
 * and user), as in production, so the selector chooses every time.
 */
export async function measureSelection(durationMs: number, runs: number): Promise<SelectionRow[]> {
  const catalog = loadBundleCatalog();
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const selectors: [string, BundleSelector][] = [
    [
      "build default (configuration, blank)",
      new ConfigurationBundleSelector({
        catalog,
        active: "",
        audit: new InMemoryAuditSink(1_000, clock),
        logger: quiet,
      }),
    ],
    ["registry: v19 ACTIVE", await registrySelector(catalog, [row(catalog, V19, "ACTIVE")])],
    [
      "registry: v19 ACTIVE, v20 CANARY 10%",
      await registrySelector(catalog, [
        row(catalog, V19, "ACTIVE"),
        row(catalog, V20, "CANARY", { canaryPercent: 10 }),
      ]),
    ],
  ];
  const engine = new LayeredDecisionEngine({
    model: new OfflineAnalyst(),
    clock,
    escalationConfidence: 0.7,
    timeouts: { L1: 5_000, L2: 20_000 },
  });
  const input = inputs().get("demo-sign-in")!;
  const signal = new AbortController().signal;
  const results = new Map<string, { rates: number[]; selectUs: number[]; versions: Map<string, number> }>(
    selectors.map(([label]) => [label, { rates: [], selectUs: [], versions: new Map() }]),
  );
  let n = 0;
  const event = (): DecisionEvent => ({ id: `e${n}`, kind: "SIGN_IN_COMPLETED", at: 0, userId: `u${n++}` });
  for (const [, selector] of selectors)
    for (let i = 0; i < 200; i++) await engine.decide(input, selector.select(event()), signal);
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? selectors : [...selectors].reverse();
    for (const [label, selector] of order) {
      const into = results.get(label)!;
      let decisions = 0;
      let selecting = 0;
      const start = performance.now();
      while (performance.now() - start < durationMs) {
        const e = event();
        const t = performance.now();
        const selection = selector.select(e);
        selecting += performance.now() - t;
        await engine.decide(input, selection, signal);
        into.versions.set(selection.version, (into.versions.get(selection.version) ?? 0) + 1);
        decisions++;
      }
      into.rates.push(decisions / ((performance.now() - start) / 1000));
      into.selectUs.push((selecting / decisions) * 1000);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return selectors.map(([label]) => {
    const r = results.get(label)!;
    const total = [...r.versions.values()].reduce((a, b) => a + b, 0);
    return {
      selector: label,
      decisionsPerSecond: Math.round(median(r.rates)),
      selectUs: Math.round(median(r.selectUs) * 100) / 100,
      versions: Object.fromEntries([...r.versions].map(([v, c]) => [v, Math.round((c / total) * 1000) / 10])),
    };
  });
}
