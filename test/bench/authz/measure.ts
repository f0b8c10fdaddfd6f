import type { BenchRequest } from "./bench-types.js";
import type { CasbinPeer } from "./casbin-peer.js";
import type { PdpUnderTest } from "./pdp-under-test.js";

/** One timed run over a window of the request stream. */
export interface TimedRun {
  readonly count: number;
  readonly ms: number;
  readonly granted: number;
  readonly rate: number;
}

/** How long a timed run goes: a fixed number of calls, or whole chunks until `ms` have passed. */
export type RunLength = { readonly count: number } | { readonly ms: number; readonly chunk: number };

const NS_PER_MS = 1_000_000n;

/**
 * Ours: awaited `decide` calls over the stream from `start` (wrapping), timed as a whole with
 * process.hrtime.bigint (read once per chunk, so the clock costs nothing per call). Counting grants
 * keeps the calls alive and lets the caller check them against the reference.
 */
export async function timeOurs(
  pdp: PdpUnderTest,
  requests: readonly BenchRequest[],
  start: number,
  length: RunLength,
): Promise<TimedRun> {
  const n = requests.length;
  const chunk = "count" in length ? length.count : length.chunk;
  const deadline = "count" in length ? undefined : BigInt(Math.round(length.ms)) * NS_PER_MS;
  let i = start % n;
  let granted = 0;
  let count = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    for (let k = 0; k < chunk; k++) {
      if ((await pdp.decide(requests[i] as BenchRequest)).granted) granted++;
      if (++i === n) i = 0;
    }
    count += chunk;
    elapsed = process.hrtime.bigint() - t0;
  } while (deadline !== undefined && elapsed < deadline);
  const ms = Number(elapsed) / 1e6;
  return { count, ms, granted, rate: (count * 1000) / ms };
}

/** Casbin: the same window, `enforceSync` per request, the clock read after every call (each costs 0.1-30 ms). */
export function timeCasbin(
  peer: CasbinPeer,
  requests: readonly BenchRequest[],
  start: number,
  length: RunLength,
): TimedRun {
  const n = requests.length;
  const max = "count" in length ? length.count : Number.POSITIVE_INFINITY;
  const deadline = "count" in length ? undefined : BigInt(Math.round(length.ms)) * NS_PER_MS;
  let i = start % n;
  let granted = 0;
  let count = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  while (count < max) {
    if (peer.decide(requests[i] as BenchRequest)) granted++;
    if (++i === n) i = 0;
    count++;
    elapsed = process.hrtime.bigint() - t0;
    if (deadline !== undefined && elapsed >= deadline) break;
  }
  const ms = Number(elapsed) / 1e6;
  return { count, ms, granted, rate: (count * 1000) / ms };
}

/** Per-decision latencies of ours, in nanoseconds, ascending. */
export interface LatencySample {
  /** Each call timed on its own (two hrtime.bigint reads around one awaited decide). */
  readonly single: Float64Array;
  /** Calls timed in batches of `batch`, each batch's time divided by `batch`. */
  readonly batched: Float64Array;
  readonly batch: number;
  /** Median cost of two back-to-back hrtime.bigint reads, included in every single-call sample. */
  readonly timerOverheadNs: number;
  /** Denials among all the calls made (for the audit check). */
  readonly denied: number;
}

/** Times `count` calls individually, then the same calls in batches. */
export async function sampleLatency(
  pdp: PdpUnderTest,
  requests: readonly BenchRequest[],
  count: number,
  batch = 32,
): Promise<LatencySample> {
  const n = requests.length;
  const single = new Float64Array(count);
  let denied = 0;
  for (let k = 0, i = 0; k < count; k++) {
    const req = requests[i] as BenchRequest;
    const t0 = process.hrtime.bigint();
    const d = await pdp.decide(req);
    single[k] = Number(process.hrtime.bigint() - t0);
    if (!d.granted) denied++;
    if (++i === n) i = 0;
  }
  const batches = Math.max(1, Math.floor(count / batch));
  const batched = new Float64Array(batches);
  for (let b = 0, i = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < batch; k++) {
      if (!(await pdp.decide(requests[i] as BenchRequest)).granted) denied++;
      if (++i === n) i = 0;
    }
    batched[b] = Number(process.hrtime.bigint() - t0) / batch;
  }
  const overhead = new Float64Array(10_001);
  for (let k = 0; k < overhead.length; k++) {
    const t0 = process.hrtime.bigint();
    overhead[k] = Number(process.hrtime.bigint() - t0);
  }
  overhead.sort();
  return {
    single: single.sort(),
    batched: batched.sort(),
    batch,
    timerOverheadNs: overhead[5_000] ?? 0,
    denied,
  };
}
