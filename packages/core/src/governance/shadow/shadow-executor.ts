import type { BundleSelection } from "../../decisions/engine/bundle-selection.js";
import type { PresealedPackage } from "../../decisions/evidence/sealed-evidence-service.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import type { DecisionMaker, DecisionOutcome } from "../../decisions/pipeline/decision-maker.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";

/** One shadow run as the runner hands it to an executor (its package id and capture time fixed). */
export interface ShadowJob {
  /** The shadow package's id. */
  readonly id: string;
  /** Its capture time (epoch ms): when the run started. */
  readonly at: number;
  readonly input: PromptInput;
  readonly event: DecisionEvent;
  readonly selection: BundleSelection;
}

/** What an executor answers: the shadow outcome and, when it sealed it, the presealed package. */
export interface ShadowRunResult {
  readonly outcome: DecisionOutcome;
  readonly presealed?: PresealedPackage | undefined;
}

/** How many runs went where (this process). */
export interface ShadowExecutorStats {
  /** `worker` while the worker serves, `in-thread` otherwise (chosen, or fallen back). */
  readonly executor: "worker" | "in-thread";
  readonly workerRuns: number;
  /** Messages that carried runs to the worker (runs are posted in batches). */
  readonly workerBatches: number;
  readonly inThreadRuns: number;
  /** Times the worker could not start or died (each switched its runs to the serving thread). */
  readonly workerFailures: number;
}

/**
 * Where a shadow run's CPU is spent: the runner's seam. The in-thread executor asks the configured
 * DecisionMaker on the serving thread (right for a model behind HTTP: its run is I/O); the worker
 * executor runs an in-process model, and the sealing it can do without keys, on a worker thread.
 */
export interface ShadowExecutor {
  /** Runs the runner may hand over at once (default 1): an executor that batches takes more. */
  readonly concurrency?: number | undefined;
  run(job: ShadowJob, signal: AbortSignal): Promise<ShadowRunResult>;
  stats(): ShadowExecutorStats;
  /** Releases what it holds (the worker); runs asked after it go in-thread. */
  stop(): Promise<void>;
}

/** The serving thread's executor: the configured DecisionMaker, the sealing left to the evidence service. */
export function inThreadShadowExecutor(maker: DecisionMaker): ShadowExecutor {
  let runs = 0;
  return {
    async run(job, signal) {
      runs++;
      return { outcome: await maker.decide(job, signal) };
    },
    stats: () => ({
      executor: "in-thread",
      workerRuns: 0,
      workerBatches: 0,
      inThreadRuns: runs,
      workerFailures: 0,
    }),
    stop: async () => {},
  };
}
