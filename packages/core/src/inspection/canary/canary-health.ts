import type { ReleaseRow } from "../../governance/registry/release-registry.js";
import type { ReleaseGovernance } from "../../governance/release-governance.js";
import { executingRelease } from "../../governance/selection/executing-release.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import { INSPECTION_LIST_MAX_LIMIT, type InspectionResultStore } from "../results/inspection-result-store.js";
import { INSPECTOR_VERSION, type InspectionResult } from "../inspection-result.js";

/** The actor canary health rolls back as (recorded in the registry's history and the audit). */
export const CANARY_HEALTH_ACTOR = "system:inspector";
/** Audit type of an automatic rollback (beside the rollback service's own `release.rollback.executed`). */
export const CANARY_ROLLED_BACK_AUDIT = "inspection.canary.rolled-back";
/** Most results one judgement reads (the newest period's; past it the counts are of the first ones read). */
const MAX_COUNTED = 40 * INSPECTION_LIST_MAX_LIMIT;

/** How a CANARY release stands on its inspected packages. */
export interface CanaryTally {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
  /** PASS, FAIL and NOT_APPLICABLE results: what the FAIL rate is taken over. */
  readonly decisive: number;
  readonly failed: number;
  /** INCOMPLETE and ERROR results: never counted as passing or failing. */
  readonly undecided: number;
  /**
   * HEALTHY (judged, under the threshold), WAITING (fewer decisive results than the minimum),
   * PAUSED (the minimum is reached only with INCOMPLETE/ERROR results: they pause the judgement),
   * ROLLED_BACK (the inspector rolled it back now), REFUSED (the rollback service refused; not tried
   * again for this CANARY period on this instance).
   */
  readonly state: "HEALTHY" | "WAITING" | "PAUSED" | "ROLLED_BACK" | "REFUSED";
  readonly executionKey?: string;
}

/** The canary-health settings (`platform.prompt-inspection.canary-health.*`). */
export interface CanaryHealthSettings {
  readonly failRatePercent: number;
  readonly minInspected: number;
}

/**
 * Canary health: a CANARY release whose inspected packages (this CANARY period's: captured as that
 * CANARY under its approval) FAIL above `failRatePercent` over at least `minInspected` decisive
 * results is rolled back through the rollback service as `system:inspector`, to the scope's ACTIVE
 * release of its key when the canary declares it, else its first declared target: an ordinary
 * rollback (no second approval; it is not an emergency stop), recorded by the service's history and
 * audit, and audited `inspection.canary.rolled-back` with the counts. INCOMPLETE and ERROR results
 * never count toward a rollback.
 */
export class CanaryHealth {
  private readonly refused = new Set<string>();

  constructor(
    private readonly o: {
      governance: ReleaseGovernance;
      results: InspectionResultStore;
      settings: CanaryHealthSettings;
      audit: AuditSink;
      logger: Logger;
    },
  ) {}

  /** Judges every CANARY release of every scope; rolls back the unhealthy ones. */
  async check(): Promise<CanaryTally[]> {
    const tallies: CanaryTally[] = [];
    for (const head of await this.o.governance.releases())
      for (const row of head.releases)
        if (row.status === "CANARY") tallies.push(await this.judge(row, head.releases));
    return tallies;
  }

  private async judge(row: ReleaseRow, scopeRows: readonly ReleaseRow[]): Promise<CanaryTally> {
    const counts = await this.tally(row);
    const { minInspected, failRatePercent } = this.o.settings;
    const base = {
      registryScope: row.registryScope,
      promptKey: row.promptKey,
      promptVersion: row.promptVersion,
      ...counts,
    };
    const period = `${row.registryScope}\u0000${row.promptKey}\u0000${row.promptVersion}\u0000${row.approval?.at}`;
    if (counts.decisive < minInspected)
      return { ...base, state: counts.decisive + counts.undecided >= minInspected ? "PAUSED" : "WAITING" };
    if (counts.failed * 100 <= failRatePercent * counts.decisive) return { ...base, state: "HEALTHY" };
    if (this.refused.has(period)) return { ...base, state: "REFUSED" };
    const target = rollbackTargetOf(row, scopeRows);
    const rate = ((counts.failed * 100) / counts.decisive).toFixed(1);
    const reason = `canary health: ${counts.failed} of ${counts.decisive} inspected packages FAIL (${rate}% > ${failRatePercent}%, minimum ${minInspected})`;
    const execution = await this.o.governance.rollback(
      {
        registryScope: row.registryScope,
        promptKey: row.promptKey,
        fromVersion: row.promptVersion,
        toVersion: target ?? row.promptVersion,
        reason,
        emergency: false,
      },
      { username: CANARY_HEALTH_ACTOR },
    );
    if (execution.status !== "EXECUTED") {
      this.refused.add(period);
      this.o.logger.warn("canary health: the rollback was refused", {
        ...base,
        executionKey: execution.executionKey,
      });
      return { ...base, state: "REFUSED", executionKey: execution.executionKey };
    }
    this.record({
      ...base,
      toVersion: execution.toVersion,
      executionKey: execution.executionKey,
      failRatePercent,
      minInspected,
    });
    return { ...base, state: "ROLLED_BACK", executionKey: execution.executionKey };
  }

  private async tally(row: ReleaseRow) {
    const counts = { decisive: 0, failed: 0, undecided: 0 };
    const since = row.approval?.at ?? row.updatedAt;
    let after: Parameters<InspectionResultStore["list"]>[0]["after"];
    for (let read = 0; read < MAX_COUNTED; ) {
      const page = await this.o.results.list({
        inspectorVersion: INSPECTOR_VERSION,
        from: since,
        limit: INSPECTION_LIST_MAX_LIMIT,
        ...(after ? { after } : {}),
      });
      read += page.results.length;
      for (const r of page.results) if (ofCanary(r, row)) count(r, counts);
      if (page.next === undefined) break;
      after = page.next;
    }
    return counts;
  }

  private record(data: Record<string, unknown>): void {
    try {
      this.o.audit.record({
        type: CANARY_ROLLED_BACK_AUDIT,
        outcome: "success",
        principal: CANARY_HEALTH_ACTOR,
        data,
      });
    } catch {
      // The rollback stands whatever the sink does.
    }
  }
}

function ofCanary(r: InspectionResult, row: ReleaseRow): boolean {
  const rel = r.release;
  return (
    rel !== undefined &&
    rel.status === "CANARY" &&
    rel.registryScope === row.registryScope &&
    rel.promptKey === row.promptKey &&
    rel.promptVersion === row.promptVersion &&
    rel.approvedAt === row.approval?.at
  );
}

function count(r: InspectionResult, c: { decisive: number; failed: number; undecided: number }): void {
  if (r.verdict === "INCOMPLETE" || r.verdict === "ERROR") c.undecided++;
  else {
    c.decisive++;
    if (r.verdict === "FAIL") c.failed++;
  }
}

/** The scope's ACTIVE release of the key when the canary declares it, else its first declared target with a row. */
function rollbackTargetOf(row: ReleaseRow, scopeRows: readonly ReleaseRow[]): string | undefined {
  const active = executingRelease(scopeRows, row.promptKey, "ACTIVE");
  if (active && row.rollbackTargets.includes(active.promptVersion)) return active.promptVersion;
  return row.rollbackTargets.find((v) =>
    scopeRows.some((r) => r.promptKey === row.promptKey && r.promptVersion === v && r.status !== "RETIRED"),
  );
}
