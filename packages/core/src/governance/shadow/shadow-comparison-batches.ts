import {
  MAX_COMPARISON_FAMILIES,
  MAX_DRIFT_CODES,
  MAX_ENFORCED_BUNDLES,
  OTHER_FAMILY,
  OTHER_REASON,
  type ShadowComparisonContent,
} from "../evidence/shadow-comparison-content.js";
import type { DecisionAction } from "../../decisions/engine/decision-record.js";
import type { ShadowRunComparison } from "./shadow-run-comparison.js";

/** The bundle a batch of comparisons is evidence for: the SHADOW release's prompt key, version and hash. */
export interface ComparedBundle {
  readonly promptKey: string;
  readonly promptVersion: string;
  readonly bundleHash: string;
}

/** A batch ready to be recorded: its bundle and its runs. */
export interface ComparisonBatch {
  readonly bundle: ComparedBundle;
  readonly runs: readonly ShadowRunComparison[];
}

/**
 * Shadow run comparisons waiting to be recorded, per compared bundle. `add` hands back a batch once
 * a bundle holds `batchSize` runs (those runs leave the pending set, so every run lands in exactly
 * one batch: records are disjoint and the gate may sum them); `drain` hands back every partial
 * batch (at stop). A batch that could not be recorded is `restore`d; past `maxPending` runs of one
 * bundle the oldest are dropped (counted), so a ledger down for days does not grow memory.
 */
export class ShadowComparisonBatches {
  private readonly pending = new Map<string, ComparisonBatch>();
  private droppedRuns = 0;

  constructor(private readonly o: { readonly batchSize: number; readonly maxPending: number }) {}

  /** Adds one run; the bundle's full batch when it reached `batchSize`, else undefined. */
  add(bundle: ComparedBundle, run: ShadowRunComparison): ComparisonBatch | undefined {
    const runs = this.append(bundle, [run]);
    if (runs.length < this.o.batchSize) return undefined;
    this.pending.delete(keyOf(bundle));
    return { bundle, runs };
  }

  /** Puts back a batch whose recording failed (its runs are recorded with the next batch). */
  restore(batch: ComparisonBatch): void {
    this.append(batch.bundle, batch.runs);
  }

  /** Every pending batch, emptied. */
  drain(): ComparisonBatch[] {
    const all = [...this.pending.values()];
    this.pending.clear();
    return all;
  }

  /** Runs waiting now, and runs dropped because too many waited. */
  counts(): { readonly pending: number; readonly dropped: number } {
    let pending = 0;
    for (const b of this.pending.values()) pending += b.runs.length;
    return { pending, dropped: this.droppedRuns };
  }

  private append(bundle: ComparedBundle, runs: readonly ShadowRunComparison[]): ShadowRunComparison[] {
    const key = keyOf(bundle);
    const all = [...(this.pending.get(key)?.runs ?? []), ...runs];
    const over = all.length - this.o.maxPending;
    if (over > 0) {
      all.splice(0, over);
      this.droppedRuns += over;
    }
    this.pending.set(key, { bundle, runs: all });
    return all;
  }
}

function keyOf(b: ComparedBundle): string {
  return JSON.stringify([b.promptKey, b.promptVersion, b.bundleHash]);
}

/** The SHADOW_COMPARISON content of a batch's runs (at least one) from `instanceId`. */
export function comparisonContent(
  instanceId: string,
  runs: readonly ShadowRunComparison[],
): ShadowComparisonContent {
  const actions = new Map<string, { enforced: DecisionAction; shadow: DecisionAction; runs: number }>();
  const enforced = new Map<string, { bundleVersion: string; bundleHash: string; runs: number }>();
  const families = new Map<string, FamilyTally>();
  let fellBack = 0;
  for (const run of runs) {
    const bundleKey = `${run.enforcedVersion}@${run.enforcedHash}`;
    const bundleSlot =
      enforced.has(bundleKey) || enforced.size < MAX_ENFORCED_BUNDLES
        ? bundleKey
        : [...enforced.keys()].pop()!;
    tally(enforced, bundleSlot, { bundleVersion: run.enforcedVersion, bundleHash: run.enforcedHash });
    if (run.shadowFellBack) {
      fellBack++;
      continue;
    }
    tally(actions, `${run.enforcedAction}>${run.shadowAction}`, {
      enforced: run.enforcedAction,
      shadow: run.shadowAction,
    });
    const familyName =
      families.has(run.family) || families.size < MAX_COMPARISON_FAMILIES ? run.family : OTHER_FAMILY;
    const family = families.get(familyName) ?? new FamilyTally(familyName);
    families.set(familyName, family);
    family.add(run);
  }
  const ats = runs.map((r) => r.at);
  return {
    instanceId,
    firstRunAt: Math.min(...ats),
    lastRunAt: Math.max(...ats),
    runs: runs.length,
    agreed: runs.filter(agrees).length,
    fellBack,
    actions: [...actions.values()],
    enforced: [...enforced.values()],
    families: [...families.values()].map((f) => f.content()),
  };
}

/** A run agrees when the shadow's own answer took the enforced action (a fallback never agrees). */
export function agrees(run: ShadowRunComparison): boolean {
  return !run.shadowFellBack && run.enforcedAction === run.shadowAction;
}

function tally<T extends object>(map: Map<string, T & { runs: number }>, key: string, fresh: T): void {
  const known = map.get(key);
  if (known === undefined) map.set(key, { ...fresh, runs: 1 });
  else known.runs++;
}

/** One family's counts within a batch. */
class FamilyTally {
  private runs = 0;
  private agreed = 0;
  private reasonDrift = 0;
  private readonly added = new Map<string, number>();
  private readonly dropped = new Map<string, number>();

  constructor(private readonly family: string) {}

  add(run: ShadowRunComparison): void {
    this.runs++;
    if (agrees(run)) this.agreed++;
    if (run.added.length > 0 || run.dropped.length > 0) this.reasonDrift++;
    for (const code of run.added) bump(this.added, code);
    for (const code of run.dropped) bump(this.dropped, code);
  }

  content(): ShadowComparisonContent["families"][number] {
    return {
      family: this.family,
      runs: this.runs,
      agreed: this.agreed,
      reasonDrift: this.reasonDrift,
      added: codeList(this.added),
      dropped: codeList(this.dropped),
    };
  }
}

function bump(map: Map<string, number>, code: string): void {
  map.set(code, (map.get(code) ?? 0) + 1);
}

/** The most frequent MAX_DRIFT_CODES codes (ties by code), the rest summed under OTHER_REASON. */
function codeList(map: Map<string, number>): { code: string; runs: number }[] {
  const sorted = [...map.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const kept = sorted.slice(0, MAX_DRIFT_CODES).map(([code, runs]) => ({ code, runs }));
  const rest = sorted.slice(MAX_DRIFT_CODES).reduce((n, [, runs]) => n + runs, 0);
  return rest > 0 ? [...kept, { code: OTHER_REASON, runs: rest }] : kept;
}
