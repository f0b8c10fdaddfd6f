import type { InjectionToken } from "tsyringe";
import type { Clock } from "../../kernel/clock.js";
import type { ConvergenceReportJson } from "../../web/wire/convergence-messages.js";
import type { ReleaseRegistry, ReleaseRow } from "../registry/release-registry.js";
import { executingRelease } from "../selection/executing-release.js";
import { changedAt, executingPromptKeys } from "./expected-releases.js";
import type { InstanceHeartbeatStore } from "./instance-heartbeat-store.js";
import { instanceVerdict, type VerdictContext } from "./instance-verdict.js";

/** Options of the ConvergenceReports. */
export interface ConvergenceReportsOptions {
  readonly registry: ReleaseRegistry;
  readonly heartbeats: InstanceHeartbeatStore;
  readonly clock: Clock;
  /** `registry.cache-ttl` + `registry.poll-interval` + `heartbeat.interval` (see `convergenceBound`). */
  readonly boundMs: number;
  /** `heartbeat.silent-after`. */
  readonly silentAfterMs: number;
}

/** The three properties' sum: how long after a registry change every live instance must serve it. */
export function convergenceBound(o: {
  cacheTtlMs: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
}): number {
  return o.cacheTtlMs + o.pollIntervalMs + o.heartbeatIntervalMs;
}

type ScopeReleases = ConvergenceReportJson["scopes"][number]["releases"];

function releaseJson(row: ReleaseRow, status: "ACTIVE" | "CANARY"): ScopeReleases[number] {
  const canary =
    status === "CANARY"
      ? {
          percent: row.canaryPercent ?? null,
          tenants: row.canaryTenants ?? [],
          resourceFamilies: row.canaryResourceFamilies ?? [],
        }
      : null;
  return {
    promptKey: row.promptKey,
    promptVersion: row.promptVersion,
    bundleHash: row.artifactHash,
    status,
    changedAt: changedAt(row),
    canary,
  };
}

/** The releases that execute in one scope: per prompt key its latest ACTIVE, then its CANARY. */
export function executingReleases(rows: readonly ReleaseRow[]): ScopeReleases {
  return executingPromptKeys(rows).flatMap((key) =>
    (["ACTIVE", "CANARY"] as const).flatMap((status) => {
      const row = executingRelease(rows, key, status);
      return row === undefined ? [] : [releaseJson(row, status)];
    }),
  );
}

/** The convergence report's service (the admin API and the releases page read it). */
export interface ConvergenceReports {
  /** The report now; `registryScope` keeps that scope only (in the releases and in each instance's scopes). */
  report(registryScope?: string): Promise<ConvergenceReportJson>;
}

/**
 * The ConvergenceReports over the registry and the heartbeat store (issue 31): reads every heartbeat and every registry head, and answers per
 * scope the releases that execute and per instance whether it serves them (`instanceVerdict`).
 * One registry read and one heartbeat read per report; nothing is cached, nothing written.
 */
export class StoreConvergenceReports implements ConvergenceReports {
  constructor(private readonly o: ConvergenceReportsOptions) {}

  /** The report now; `registryScope` keeps that scope only (in the releases and in each instance's scopes). */
  async report(registryScope?: string): Promise<ConvergenceReportJson> {
    const [heads, heartbeats] = await Promise.all([this.o.registry.heads(), this.o.heartbeats.list()]);
    const now = this.o.clock.now();
    const rows = new Map(heads.map((h) => [h.registryScope, h.releases] as const));
    const ctx: VerdictContext = { rows, now, boundMs: this.o.boundMs, silentAfterMs: this.o.silentAfterMs };
    const scopes = heads
      .filter((h) => registryScope === undefined || h.registryScope === registryScope)
      .map((h) => ({ registryScope: h.registryScope, releases: executingReleases(h.releases) }));
    const instances = heartbeats.map((beat) => {
      const verdict = instanceVerdict(ctx, beat);
      if (registryScope === undefined) return verdict;
      return { ...verdict, scopes: verdict.scopes.filter((s) => s.registryScope === registryScope) };
    });
    return {
      generatedAt: now,
      boundMs: this.o.boundMs,
      silentAfterMs: this.o.silentAfterMs,
      scopes,
      instances,
    };
  }
}

/** DI token of the ConvergenceReports (registered by `registerConvergence`; internal to governance). */
export const ConvergenceReports: InjectionToken<ConvergenceReports> = Symbol.for(
  "platform.ConvergenceReports",
);
