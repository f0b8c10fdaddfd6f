import { performance } from "node:perf_hooks";
import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { AuthzBenchOptions } from "./authz-options.js";
import { median, percentile } from "./bench-stats.js";
import { COMBINING_ALGORITHMS, type BenchRequest, type CombiningAlgorithmName } from "./bench-types.js";
import { createCasbinPeer } from "./casbin-peer.js";
import { type Comparison, compareWithReference, expectedGrants } from "./compare-decisions.js";
import type { PdpFactory } from "./load-pdp.js";
import { type RunLength, sampleLatency, type TimedRun, timeCasbin, timeOurs } from "./measure.js";
import type { AuditStats, PdpUnderTest } from "./pdp-under-test.js";
import { ReferencePdp } from "./reference-pdp.js";
import { buildOptions, generateWorkload, type Workload } from "./workload.js";

/** One interleaved repetition of ours and casbin over the same window of the stream. */
export interface Repetition {
  readonly ours: TimedRun;
  readonly casbin: TimedRun;
  readonly ratio: number;
  readonly oursFirst: boolean;
}

/** One algorithm at one N: build, rates, comparison with the reference, grant-count drift. */
export interface AlgorithmRun {
  readonly algorithm: CombiningAlgorithmName;
  readonly buildMs: number;
  readonly buildWallMs: number;
  readonly rates: readonly number[];
  readonly medianRate: number;
  readonly comparison: Omit<Comparison, "grantedPrefix">;
  /** Timed runs whose grant count differed from the reference's for the same window. */
  readonly drift: number;
}

/** Per-decision latency of ours (FIRST_APPLICABLE), microseconds. */
export interface LatencySummary {
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly batch: number;
  readonly batchedP50: number;
  readonly batchedP99: number;
  readonly timerOverhead: number;
}

/** Everything measured at one N. */
export interface SizeRun {
  readonly policyCount: number;
  readonly executablePolicies: number;
  readonly resources: number;
  readonly requests: number;
  readonly anonymousShare: number;
  /** Share of requests some policy's target matched (FIRST_APPLICABLE, per the reference). */
  readonly matchedShare: number;
  readonly grantedShare: number;
  readonly usersWithAction: number;
  readonly casbin: { readonly policyRows: number; readonly groupingRows: number; readonly buildMs: number };
  readonly firstApplicable: AlgorithmRun & {
    readonly repetitions: readonly Repetition[];
    readonly casbinMedianRate: number;
    readonly ratioMedian: number;
  };
  readonly latency: LatencySummary;
  readonly others: readonly AlgorithmRun[];
  readonly rebuild: { readonly ms: readonly number[]; readonly wallMs: readonly number[] };
  readonly audit: {
    readonly denied: number;
    readonly audited: number | undefined;
    readonly stats?: AuditStats | undefined;
  };
}

type Progress = (line: string) => void;

/** Calls of ours between two clock reads in the timed loops. */
const OURS_CHUNK = 256;

/** Runs every measurement at one N with a fresh PDP instance. */
export async function runSize(
  policyCount: number,
  opts: AuthzBenchOptions,
  factory: PdpFactory,
  progress: Progress,
): Promise<SizeRun> {
  const workload = generateWorkload({ policyCount, requestCount: opts.requestCount, seed: opts.seed });
  const { requests } = workload;
  const casbin = await createCasbinPeer(workload, opts.casbinVariant);
  progress(
    `N=${policyCount}: ${workload.resources.length} resources, casbin ${casbin.policyRows} p rows in ${casbin.buildMs.toFixed(0)} ms`,
  );
  const pdp = await factory.create();
  const tally = { denied: 0 };
  const ours = async (start: number, length: RunLength): Promise<TimedRun> => {
    const run = await timeOurs(pdp, requests, start, length);
    tally.denied += run.count - run.granted;
    return run;
  };
  try {
    const fa = await buildAndCompare(pdp, workload, "FIRST_APPLICABLE", tally, progress);
    // Warm both sides (the comparison pass already ran every request through ours once).
    await ours(0, { ms: 200, chunk: OURS_CHUNK });
    timeCasbin(casbin, requests, 0, { ms: 100, chunk: 1 });
    const side: RunLength = { ms: opts.secondsPerSide * 1000, chunk: OURS_CHUNK };
    const repetitions: Repetition[] = [];
    let drift = 0;
    for (let rep = 0; rep < opts.repetitions; rep++) {
      const start = (rep * 7_919) % requests.length;
      const oursFirst = rep % 2 === 0;
      // Alternate who goes first, so neither side always runs on a warmer (or more fragmented) heap.
      const before = oursFirst ? await ours(start, side) : undefined;
      const c = timeCasbin(casbin, requests, start, side);
      const o = before ?? (await ours(start, side));
      if (o.granted !== expectedGrants(fa.prefix, start, o.count)) drift++;
      repetitions.push({ ours: o, casbin: c, ratio: o.rate / c.rate, oursFirst });
      progress(
        `N=${policyCount} rep ${rep + 1}: ours ${o.rate.toFixed(0)}/s (${o.count}), casbin ${c.rate.toFixed(1)}/s (${c.count}), ratio ${(o.rate / c.rate).toFixed(1)}`,
      );
    }
    const latency = await measureLatency(pdp, requests, median(repetitions.map((r) => r.ours.rate)), tally);
    const others: AlgorithmRun[] = [];
    for (const algorithm of COMBINING_ALGORITHMS.filter((a) => a !== "FIRST_APPLICABLE")) {
      others.push(await runAlgorithm(pdp, workload, algorithm, opts, tally, progress));
    }
    const rebuild = await measureRebuilds(pdp, workload, opts.rebuilds);
    progress(
      `N=${policyCount}: rebuild median ${median(rebuild.ms).toFixed(1)} ms (PDP) / ${median(rebuild.wallMs).toFixed(1)} ms (wall)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const audited = pdp.auditedDenials ? await pdp.auditedDenials() : undefined;
    const stats = pdp.auditStats ? await pdp.auditStats() : undefined;
    const anonymous = requests.filter((r) => r.authentication === undefined).length;
    return {
      policyCount,
      executablePolicies: workload.policies.filter(
        (p) => p.isActive && (p.approvalStatus === "NOT_REQUIRED" || p.approvalStatus === "APPROVED"),
      ).length,
      resources: workload.resources.length,
      requests: requests.length,
      anonymousShare: anonymous / requests.length,
      matchedShare: fa.run.comparison.decidedByPolicy / requests.length,
      grantedShare: (fa.prefix[requests.length] ?? 0) / requests.length,
      usersWithAction: workload.actions.size,
      casbin: { policyRows: casbin.policyRows, groupingRows: casbin.groupingRows, buildMs: casbin.buildMs },
      firstApplicable: {
        ...fa.run,
        rates: repetitions.map((r) => r.ours.rate),
        medianRate: median(repetitions.map((r) => r.ours.rate)),
        drift,
        repetitions,
        casbinMedianRate: median(repetitions.map((r) => r.casbin.rate)),
        ratioMedian: median(repetitions.map((r) => r.ratio)),
      },
      latency,
      others,
      rebuild,
      audit: { denied: tally.denied, audited, stats },
    };
  } finally {
    await pdp.close?.();
  }
}

async function buildAndCompare(
  pdp: PdpUnderTest,
  workload: Workload,
  algorithm: CombiningAlgorithmName,
  tally: { denied: number },
  progress: Progress,
): Promise<{ run: Omit<AlgorithmRun, "rates" | "medianRate" | "drift">; prefix: Uint32Array }> {
  const t0 = performance.now();
  const { buildMs } = await pdp.build(workload.policies, buildOptions(workload, algorithm));
  const buildWallMs = performance.now() - t0;
  const reference = new ReferencePdp();
  await reference.build(workload.policies, buildOptions(workload, algorithm));
  const { grantedPrefix, ...comparison } = await compareWithReference(pdp, reference, workload.requests);
  tally.denied += comparison.oursDenied;
  progress(
    `N=${workload.policies.length} ${algorithm}: built in ${buildMs.toFixed(1)} ms, ${comparison.mismatches} mismatches of ${comparison.compared}`,
  );
  return { run: { algorithm, buildMs, buildWallMs, comparison }, prefix: grantedPrefix };
}

async function runAlgorithm(
  pdp: PdpUnderTest,
  workload: Workload,
  algorithm: CombiningAlgorithmName,
  opts: AuthzBenchOptions,
  tally: { denied: number },
  progress: Progress,
): Promise<AlgorithmRun> {
  const { run, prefix } = await buildAndCompare(pdp, workload, algorithm, tally, progress);
  const length: RunLength = { ms: (opts.secondsPerSide * 1000) / 2, chunk: OURS_CHUNK };
  const warm = await timeOurs(pdp, workload.requests, 0, { ms: 50, chunk: OURS_CHUNK });
  tally.denied += warm.count - warm.granted;
  const rates: number[] = [];
  let drift = 0;
  for (let rep = 0; rep < opts.repetitions; rep++) {
    const start = (rep * 7_919) % workload.requests.length;
    const r = await timeOurs(pdp, workload.requests, start, length);
    tally.denied += r.count - r.granted;
    if (r.granted !== expectedGrants(prefix, start, r.count)) drift++;
    rates.push(r.rate);
  }
  return { ...run, rates, medianRate: median(rates), drift };
}

async function measureLatency(
  pdp: PdpUnderTest,
  requests: readonly BenchRequest[],
  rate: number,
  tally: { denied: number },
): Promise<LatencySummary> {
  const count = Math.max(2_000, Math.min(100_000, Math.round(rate * 0.3)));
  const s = await sampleLatency(pdp, requests, count);
  tally.denied += s.denied;
  const us = (ns: number): number => ns / 1000;
  return {
    samples: count,
    p50: us(percentile(s.single, 50)),
    p99: us(percentile(s.single, 99)),
    p999: us(percentile(s.single, 99.9)),
    max: us(s.single[s.single.length - 1] ?? Number.NaN),
    batch: s.batch,
    batchedP50: us(percentile(s.batched, 50)),
    batchedP99: us(percentile(s.batched, 99)),
    timerOverhead: us(s.timerOverheadNs),
  };
}

/** Rebuilds FIRST_APPLICABLE from freshly cloned policies (as a reload from the store would see them). */
async function measureRebuilds(
  pdp: PdpUnderTest,
  workload: Workload,
  times: number,
): Promise<{ ms: number[]; wallMs: number[] }> {
  const ms: number[] = [];
  const wallMs: number[] = [];
  // Back to FIRST_APPLICABLE once, untimed: switching algorithms may cost more than a reload does.
  await pdp.build(workload.policies, buildOptions(workload, "FIRST_APPLICABLE"));
  for (let i = 0; i < times; i++) {
    const copy: Policy[] = structuredClone([...workload.policies]);
    const t0 = performance.now();
    const r = await pdp.build(copy, buildOptions(workload, "FIRST_APPLICABLE"));
    wallMs.push(performance.now() - t0);
    ms.push(r.buildMs);
  }
  return { ms, wallMs };
}
