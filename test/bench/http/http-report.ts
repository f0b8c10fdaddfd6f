import type { MachineInfo } from "../login/machine.js";
import { percentile } from "../login/stats.js";
import type { LoadRun } from "./keep-alive-load.js";
import { SCENARIOS, type ScenarioId } from "./scenarios.js";

/** Every repetition of one scenario. */
export interface ScenarioRuns {
  id: ScenarioId;
  runs: LoadRun[];
}

/** One row of the table. */
export interface ScenarioRow {
  id: ScenarioId;
  label: string;
  /** Median over the repetitions. */
  rate: number;
  /** Each repetition's rate, in run order. */
  rates: number[];
  p50: number;
  p99: number;
  /** Median rate over the bare route's median rate. */
  ratio: number;
  /** Server CPU per answer (all rounds' CPU over all their answers), in µs. */
  cpuPerAnswer: number;
  /** The bare route's CPU per answer over this route's: the throughput ratio one free core would give. */
  cpuRatio: number;
  errors: number;
}

/** Median requests/s per scenario, percentiles over every measured answer, ratio to the bare route. */
export function tabulate(all: ScenarioRuns[]): ScenarioRow[] {
  const rateOf = (run: LoadRun): number => (run.ok * 1000) / run.elapsedMs;
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  };
  const cpuOf = (runs: LoadRun[]): number =>
    runs.reduce((n, r) => n + r.serverCpuMicros, 0) / runs.reduce((n, r) => n + r.ok, 0);
  const bareRuns = all.find((s) => s.id === "bare")?.runs ?? [];
  const bare = median(bareRuns.map(rateOf));
  const bareCpu = cpuOf(bareRuns);
  return all.map(({ id, runs }) => {
    const rates = runs.map(rateOf);
    const joined = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
    let at = 0;
    for (const r of runs) {
      joined.set(r.latencies, at);
      at += r.latencies.length;
    }
    joined.sort();
    const rate = median(rates);
    return {
      id,
      label: SCENARIOS[id].label,
      rate,
      rates,
      p50: percentile(joined, 50),
      p99: percentile(joined, 99),
      ratio: bare > 0 ? rate / bare : Number.NaN,
      cpuPerAnswer: cpuOf(runs),
      cpuRatio: bareCpu / cpuOf(runs),
      errors: runs.reduce((n, r) => n + r.errors, 0),
    };
  });
}

/** The markdown table with the machine, the date, the commit and how the run was made. */
export function renderTable(
  rows: ScenarioRow[],
  info: { machine: MachineInfo; date: Date; connections: number; reps: number; durationMs: number },
): string {
  const m = info.machine;
  const lines = [
    `Measured ${info.date.toISOString()} on commit ${m.git}: ${m.cpuModel}, ${m.cpuCount} cores, ` +
      `${m.totalMemoryGiB} GiB, Node ${m.node}, ${m.platform}; load average ${m.loadAverage}.`,
    `Load: ${info.connections} keep-alive connections, closed loop, from one generator process on the ` +
      `same machine; ${info.reps} interleaved rounds of ${info.durationMs} ms per route; requests/s is the ` +
      "median of the rounds, latencies over every answer. Server CPU is the server process's user + " +
      "system time per answer; its ratio (bare CPU / route CPU) is what the throughput ratio would be " +
      "if the server had a core to itself, and moves far less with other load on the machine.",
    "",
    "| route | requests/s | p50 ms | p99 ms | of bare | server CPU µs/answer | of bare (CPU) | errors | rounds (req/s) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rate)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ` +
        `${(r.ratio * 100).toFixed(0)}% | ${r.cpuPerAnswer.toFixed(1)} | ${(r.cpuRatio * 100).toFixed(0)}% | ${r.errors} | ${r.rates.map((x) => Math.round(x)).join(", ")} |`,
    ),
  ];
  return lines.join("\n");
}
