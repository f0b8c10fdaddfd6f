import { performance } from "node:perf_hooks";
import { type CpuSample, startCpuSample } from "./cpu-sample.js";

/** When a closed-loop run stops: after `count` operations, after `durationMs`, or whichever comes first. */
export interface LoopBounds {
  /** Operations running at once; each worker starts its next one when the previous one settles. */
  concurrency: number;
  /** Operations to start in all. */
  count?: number;
  /** No operation starts after this many ms (those in flight finish). */
  durationMs?: number;
}

/** The raw outcome of one run: latencies of the operations that succeeded, errors by message. */
export interface RawRun {
  /** Milliseconds, one per successful operation, in completion order. */
  latencies: number[];
  /** Failed operations, counted by message. */
  errors: Record<string, number>;
  /** Wall time from the first start to the last completion, in ms. */
  elapsedMs: number;
  /** CPU use over the same interval. */
  cpu: CpuSample;
}

/** Hard cap of a duration-bound run, so even a broken clock cannot make it endless. */
const MAX_OPERATIONS = 10_000_000;

/**
 * A closed-loop load generator: `concurrency` workers, each awaiting `op` again and again until the
 * bounds say stop; latency is measured around each call with `performance.now()`. An operation that
 * throws counts as an error under its message and does not stop the run.
 */
export async function closedLoop(bounds: LoopBounds, op: (worker: number) => Promise<void>): Promise<RawRun> {
  if (bounds.count === undefined && bounds.durationMs === undefined) {
    throw new RangeError("closedLoop needs a count or a duration");
  }
  const limit = Math.min(bounds.count ?? MAX_OPERATIONS, MAX_OPERATIONS);
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const stopCpu = startCpuSample();
  const start = performance.now();
  const deadline = bounds.durationMs === undefined ? Number.POSITIVE_INFINITY : start + bounds.durationMs;
  let started = 0;
  const worker = async (id: number): Promise<void> => {
    while (started < limit && performance.now() < deadline) {
      started++;
      const t0 = performance.now();
      try {
        await op(id);
        latencies.push(performance.now() - t0);
      } catch (error) {
        const message = describeError(error);
        errors[message] = (errors[message] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: bounds.concurrency }, (_, id) => worker(id)));
  const elapsedMs = performance.now() - start;
  return { latencies, errors, elapsedMs, cpu: stopCpu() };
}

/** A short, stable message for an error, with its cause's code when fetch wrapped one. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause && typeof cause === "object" ? ` (${String(cause.code ?? cause.message)})` : "";
  return `${error.name}: ${error.message}${detail}`;
}
