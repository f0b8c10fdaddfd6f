import type { MachineInfo } from "../login/machine.js";
import type { AuthzBenchOptions } from "./authz-options.js";
import type { SizeRun } from "./authz-scenario.js";
import { formatNumber as f, median } from "./bench-stats.js";
import { describeMismatch } from "./compare-decisions.js";

/** Everything one run produced. */
export interface AuthzBenchResults {
  readonly startedAt: Date;
  readonly options: AuthzBenchOptions;
  readonly machine: MachineInfo;
  readonly pdpName: string;
  readonly pdpSource: "platform" | "reference";
  readonly pdpLocation: string;
  readonly casbinVersion: string;
  readonly sizes: readonly SizeRun[];
  totalMs: number;
}

/** The speed goals: ours ÷ casbin at each N. */
export const RATIO_GOALS: ReadonlyMap<number, number> = new Map([
  [100, 100],
  [1_000, 1_000],
  [10_000, 5_000],
]);
export const COST_RATIO_GOAL = 2;
export const TAIL_GOAL = 4;
export const REBUILD_GOAL_MS = 250;

/** One line of the goals table. */
export interface Goal {
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
}

/** The goals of issue #8 against what was measured (only those the chosen sizes can speak to). */
export function evaluateGoals(results: AuthzBenchResults): Goal[] {
  const goals: Goal[] = [];
  for (const s of results.sizes) {
    const want = RATIO_GOALS.get(s.policyCount);
    if (want === undefined) continue;
    goals.push({
      goal: `decisions/s ≥ ${f(want)}× node-casbin at N=${f(s.policyCount)}`,
      measured: `${f(s.firstApplicable.ratioMedian)}×`,
      met: s.firstApplicable.ratioMedian >= want,
    });
  }
  const small = results.sizes.find((s) => s.policyCount === 100);
  const large = results.sizes.find((s) => s.policyCount === 10_000);
  if (small && large) {
    const ratio = small.firstApplicable.medianRate / large.firstApplicable.medianRate;
    goals.push({
      goal: `cost per decision at N=10,000 ≤ ${COST_RATIO_GOAL}× that at N=100`,
      measured: `${f(ratio)}×`,
      met: ratio <= COST_RATIO_GOAL,
    });
  }
  for (const s of results.sizes) {
    const tail = s.latency.p99 / s.latency.p50;
    goals.push({
      goal: `p99 ≤ ${TAIL_GOAL}× p50 at N=${f(s.policyCount)} (single calls)`,
      measured: `${f(tail)}×`,
      met: tail <= TAIL_GOAL,
    });
  }
  if (large) {
    const ms = median(large.rebuild.ms);
    goals.push({
      goal: `rebuild of 10,000 policies ≤ ${REBUILD_GOAL_MS} ms`,
      measured: `${f(ms)} ms`,
      met: ms <= REBUILD_GOAL_MS,
    });
  }
  const bad = mismatchTotal(results);
  goals.push({
    goal: "zero mismatches against the reference, every request, every N, every algorithm",
    measured: String(bad),
    met: bad === 0,
  });
  return goals;
}

/** Mismatches plus timed-loop drift, over every N and algorithm. */
export function mismatchTotal(results: AuthzBenchResults): number {
  return results.sizes.reduce(
    (sum, s) =>
      sum + [s.firstApplicable, ...s.others].reduce((n, a) => n + a.comparison.mismatches + a.drift, 0),
    0,
  );
}

/** The markdown report. */
export function renderAuthzReport(r: AuthzBenchResults): string {
  const o = r.options;
  const first = r.sizes[0];
  const lines: string[] = [];
  const row = (...cells: Array<string | number>): void => {
    lines.push(`| ${cells.map((c) => (typeof c === "number" ? f(c) : c)).join(" | ")} |`);
  };
  lines.push("## Authorization PDP (issue #8)", "");
  lines.push(
    `Run ${r.startedAt.toISOString()}${o.quick ? " (quick)" : ""}, ${(r.totalMs / 1000).toFixed(1)} s. Machine: ${r.machine.cpuModel}, ${r.machine.cpuCount} CPUs, Node ${r.machine.node}, ${r.machine.git}.`,
  );
  lines.push(
    `PDP under test: **${r.pdpName}** (${r.pdpSource === "platform" ? r.pdpLocation : "no platform-pdp.ts: the reference stands in, so mismatches are trivially 0"}).`,
  );
  lines.push(
    `Peer: node-casbin ${r.casbinVersion}, \`enforceSync\`, model \`${o.casbinVariant}\` (RBAC + keyMatch2 + method).`,
  );
  if (first) {
    lines.push(
      `Workload (seed ${o.seed}): 2,000 users with 1-3 roles, ${first.usersWithAction} with a zero-trust action; ${f(first.requests)} distinct requests per N, ` +
        `${(first.anonymousShare * 100).toFixed(1)}% anonymous; ${o.repetitions} interleaved repetitions (order alternating), ~${o.secondsPerSide} s per side.`,
    );
  }
  lines.push("", "### FIRST_APPLICABLE: ours vs node-casbin", "");
  row(
    "N",
    "executable",
    "resources",
    "matched",
    "granted",
    "casbin p rows",
    "ours decisions/s",
    "casbin decisions/s",
    "ratio (median)",
    "ratio min–max",
    "goal",
  );
  row("---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:");
  for (const s of r.sizes) {
    const fa = s.firstApplicable;
    const ratios = fa.repetitions.map((x) => x.ratio);
    const want = RATIO_GOALS.get(s.policyCount);
    row(
      s.policyCount,
      s.executablePolicies,
      s.resources,
      `${(s.matchedShare * 100).toFixed(1)}%`,
      `${(s.grantedShare * 100).toFixed(1)}%`,
      s.casbin.policyRows,
      fa.medianRate,
      fa.casbinMedianRate,
      `${f(fa.ratioMedian)}×`,
      `${f(Math.min(...ratios))}–${f(Math.max(...ratios))}`,
      want === undefined ? "–" : `${f(want)}× ${fa.ratioMedian >= want ? "met" : "missed"}`,
    );
  }
  lines.push("", "### Latency of ours, FIRST_APPLICABLE (µs per decision)", "");
  lines.push(
    `Single: each awaited \`decide\` timed alone with two process.hrtime.bigint reads (their own cost, ~${f(first?.latency.timerOverhead ?? Number.NaN)} µs, included). ` +
      `Batched: ${first?.latency.batch ?? 32} consecutive calls timed together, divided by ${first?.latency.batch ?? 32}.`,
    "",
  );
  row("N", "samples", "p50", "p99", "p99/p50", "p99.9", "max", "batched p50", "batched p99");
  row("---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:");
  for (const s of r.sizes) {
    const l = s.latency;
    row(
      s.policyCount,
      l.samples,
      l.p50,
      l.p99,
      `${f(l.p99 / l.p50)}×`,
      l.p999,
      l.max,
      l.batchedP50,
      l.batchedP99,
    );
  }
  const small = r.sizes[0];
  const large = r.sizes[r.sizes.length - 1];
  if (small && large && small !== large) {
    lines.push(
      "",
      `Cost per decision at N=${f(large.policyCount)} vs N=${f(small.policyCount)}: ${f(small.firstApplicable.medianRate / large.firstApplicable.medianRate)}× (median rates).`,
    );
  }
  lines.push("", "### Build and rebuild (FIRST_APPLICABLE)", "");
  row(
    "N",
    "first build ms (PDP)",
    "first build ms (wall)",
    `rebuild ms (PDP), median of ${o.rebuilds}`,
    "rebuild ms (wall), median",
    "casbin build ms",
  );
  row("---:", "---:", "---:", "---:", "---:", "---:");
  for (const s of r.sizes) {
    row(
      s.policyCount,
      s.firstApplicable.buildMs,
      s.firstApplicable.buildWallMs,
      median(s.rebuild.ms),
      median(s.rebuild.wallMs),
      s.casbin.buildMs,
    );
  }
  lines.push("", "### Every algorithm: ours, and mismatches against the reference", "");
  lines.push(
    "Every request of the stream is decided by ours and by the reference in a pass outside the timed loops (granted and policyId compared); drift counts timed runs whose number of grants differs from the reference's for the same window.",
    "",
  );
  row("N", "algorithm", "ours decisions/s (median)", "build ms", "compared", "mismatches", "drift");
  row("---:", "---", "---:", "---:", "---:", "---:", "---:");
  for (const s of r.sizes) {
    for (const a of [s.firstApplicable, ...s.others]) {
      row(
        s.policyCount,
        a.algorithm,
        a.medianRate,
        a.buildMs,
        a.comparison.compared,
        a.comparison.mismatches,
        a.drift,
      );
    }
  }
  lines.push("", "### Audit sink", "");
  for (const s of r.sizes) {
    lines.push(
      s.audit.audited === undefined
        ? `- N=${f(s.policyCount)}: ${f(s.audit.denied)} denials; the PDP does not report audit records (no auditedDenials()).`
        : s.audit.stats
          ? `- N=${f(s.policyCount)}: ${f(s.audit.stats.denied)} denials answered by the PDP (timed and untimed): ${f(s.audit.stats.delivered)} audit records delivered to the sink, ${f(s.audit.stats.dropped)} dropped by the full queue and counted${s.audit.stats.delivered + s.audit.stats.dropped === s.audit.stats.denied ? " (all accounted for)" : " (NOT all accounted for)"}.`
          : `- N=${f(s.policyCount)}: ${f(s.audit.denied)} denials, ${f(s.audit.audited)} audit records${s.audit.audited === s.audit.denied ? "" : " (differ)"}.`,
    );
  }
  lines.push("", "### Repetitions (FIRST_APPLICABLE)", "");
  row("N", "rep", "first", "ours decisions/s", "ours calls", "casbin decisions/s", "casbin calls", "ratio");
  row("---:", "---:", "---", "---:", "---:", "---:", "---:", "---:");
  for (const s of r.sizes) {
    s.firstApplicable.repetitions.forEach((x, i) => {
      row(
        s.policyCount,
        i + 1,
        x.oursFirst ? "ours" : "casbin",
        x.ours.rate,
        x.ours.count,
        x.casbin.rate,
        x.casbin.count,
        `${f(x.ratio)}×`,
      );
    });
  }
  lines.push("", "### Goals", "");
  row("goal", "measured", "met");
  row("---", "---:", "---");
  for (const g of evaluateGoals(r)) row(g.goal, g.measured, g.met ? "yes" : "**no**");
  const samples = r.sizes.flatMap((s) =>
    [s.firstApplicable, ...s.others].flatMap((a) =>
      a.comparison.samples.map((m) => `- N=${s.policyCount} ${a.algorithm}: ${describeMismatch(m)}`),
    ),
  );
  if (samples.length > 0) lines.push("", "### Mismatches (first 10 per N and algorithm)", "", ...samples);
  return `${lines.join("\n")}\n`;
}
