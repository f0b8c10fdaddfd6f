import type { RawRun } from "./closed-loop.js";
import type { CpuSample } from "./cpu-sample.js";

/** One row of the results: what ran, how often, how fast. */
export interface RunSummary {
  scenario: string;
  concurrency: number;
  /** Operations that succeeded. */
  ok: number;
  /** Operations that failed (non-200, wrong body, network error, timeout, false verify). */
  errorCount: number;
  errors: Record<string, number>;
  elapsedMs: number;
  /** Successful operations per second of wall time. */
  rate: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  cpu: CpuSample;
}

/** Summarises a raw run: throughput over wall time, latency percentiles of the successful operations. */
export function summarise(scenario: string, concurrency: number, run: RawRun): RunSummary {
  const sorted = Float64Array.from(run.latencies).sort();
  const ok = sorted.length;
  const errorCount = Object.values(run.errors).reduce((sum, n) => sum + n, 0);
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return {
    scenario,
    concurrency,
    ok,
    errorCount,
    errors: run.errors,
    elapsedMs: run.elapsedMs,
    rate: run.elapsedMs > 0 ? (ok * 1000) / run.elapsedMs : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: ok > 0 ? total / ok : Number.NaN,
    max: ok > 0 ? (sorted[ok - 1] ?? Number.NaN) : Number.NaN,
    cpu: run.cpu,
  };
}

/** Nearest-rank percentile of ascending values; NaN for none. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}
