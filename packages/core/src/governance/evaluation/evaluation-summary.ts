import type { CaseResult, EvaluationSummary } from "./evaluation-run-record.js";
import { wilsonLowerBound } from "./wilson-bound.js";

/** Rates and bounds are recorded to six decimals, so any implementation of the formula agrees. */
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function tally(results: readonly CaseResult[]) {
  const trials = results.length;
  const passed = results.filter((r) => r.passed).length;
  return {
    trials,
    passed,
    passRate: round6(trials === 0 ? 0 : passed / trials),
    lowerBound: round6(wilsonLowerBound(passed, trials)),
  };
}

/** Nearest-rank percentile `p` (0..100) of `values`; 0 for none. */
export function nearestRankPercentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The summary of a run's graded decisions: each family's and the overall pass rate with its Wilson
 * lower bound (95 %; every (case, repetition) is one trial), the latency p95 (nearest rank) and the
 * mean tokens per decision. The runner writes it; the intake computes it again and compares.
 */
export function summarizeCases(
  families: readonly string[],
  results: readonly CaseResult[],
): EvaluationSummary {
  const tokens = results.reduce((sum, r) => sum + r.tokens, 0);
  return {
    confidence: "wilson-95",
    families: families.map((family) => ({ family, ...tally(results.filter((r) => r.family === family)) })),
    overall: tally(results),
    latencyP95Ms: round6(
      nearestRankPercentile(
        results.map((r) => r.latencyMs),
        95,
      ),
    ),
    tokensPerDecision: round6(results.length === 0 ? 0 : tokens / results.length),
  };
}
