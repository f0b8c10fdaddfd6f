import type { BundleSelection, ServedBundle } from "../../decisions/engine/bundle-selection.js";
import type { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import { ManualClock } from "../../kernel/clock.js";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import type { Logger } from "../../kernel/logger.js";
import { InMemoryReleaseRegistry } from "../registry/in-memory-release-registry.js";
import { headOf, releaseRow } from "../registry/release-registry.contract-rows.js";
import type { ReleaseRow } from "../registry/release-registry.js";
import { StoreConvergenceReports } from "./convergence-report.js";
import { HeartbeatWriter } from "./heartbeat-writer.js";
import { InMemoryInstanceHeartbeatStore } from "./in-memory-instance-heartbeat-store.js";
import type { HeartbeatSelector } from "./instance-heartbeat-store.js";

/** The bound and silence the fixtures' reports use (the defaults: 60 s + 5 s + 15 s, 60 s). */
export const BOUND_MS = 80_000;
export const SILENT_AFTER_MS = 60_000;
/** When the fixtures' registry changed last. */
export const T0 = Date.UTC(2026, 5, 1);

/** A row of PLATFORM_GLOBAL (or `registryScope`) changed at T0, approved then. */
export function row(
  version: string,
  status: ReleaseRow["status"],
  over: Partial<ReleaseRow> = {},
): ReleaseRow {
  return releaseRow(version, status, {
    updatedAt: T0,
    approval: { by: "alice", at: T0, rationale: "r" },
    ...over,
  });
}

/** The hash `releaseRow` gives `version`. */
export const hashOf = (version: string) => releaseRow(version, "ACTIVE").artifactHash;

/** What one served entry of a selector looks like (PLATFORM_GLOBAL, the fixtures' prompt key). */
export function served(
  version: string,
  source: ServedBundle["source"],
  registryScope = "PLATFORM_GLOBAL",
): ServedBundle {
  return {
    registryScope,
    promptKey: "security-decision",
    promptVersion: version,
    bundleHash: hashOf(version),
    source,
  };
}

/**
 * A selector that serves what a test says (the heartbeat reads only `serving()`): stands for the
 * registry selector another branch writes, whose `serving()` answers each cached scope's entries.
 */
export class ServingSelector implements BundleSelector {
  constructor(public serves: readonly ServedBundle[]) {}
  select(): BundleSelection {
    throw new Error("the heartbeat never selects");
  }
  serving(): readonly ServedBundle[] {
    return this.serves;
  }
}

/** A logger that keeps its lines. */
export class LinesLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  debug(message: string) {
    this.lines.push({ level: "debug", message });
  }
  info(message: string) {
    this.lines.push({ level: "info", message });
  }
  warn(message: string) {
    this.lines.push({ level: "warn", message });
  }
  error(message: string) {
    this.lines.push({ level: "error", message });
  }
}

/** Real in-memory stores, a manual clock at T0, the report over them, and instances that beat through the store port. */
export function convergenceHarness() {
  const clock = new ManualClock(T0);
  const registry = new InMemoryReleaseRegistry();
  const heartbeats = new InMemoryInstanceHeartbeatStore();
  const reports = new StoreConvergenceReports({
    registry,
    heartbeats,
    clock,
    boundMs: BOUND_MS,
    silentAfterMs: SILENT_AFTER_MS,
  });
  const logger = new LinesLogger();
  /** An instance started at `startedAt` that serves `serves`: its writer beats through the store. */
  const instance = (
    instanceId: string,
    serves: readonly ServedBundle[],
    startedAt = T0 - 3_600_000,
    selectorKind?: HeartbeatSelector,
  ) => {
    const selector = new ServingSelector(serves);
    const writer = new HeartbeatWriter({
      store: heartbeats,
      identity: new InstanceIdentity(instanceId, startedAt),
      selector,
      clock,
      logger,
      intervalMs: 15_000,
      selectorKind,
    });
    return { selector, writer };
  };
  const put = async (registryScope: string, rows: readonly ReleaseRow[]) => {
    const head = await registry.head(registryScope);
    await registry.replaceHead(
      registryScope,
      head.revision,
      headOf(rows.map((r) => ({ ...r, registryScope }))),
    );
  };
  return { clock, registry, heartbeats, reports, logger, instance, put };
}
