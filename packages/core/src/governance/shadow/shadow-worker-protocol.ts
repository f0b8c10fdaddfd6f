import type { ShadowWorkerAnswer, ShadowWorkerJob } from "./shadow-worker-engine.js";

/** One job of a batch, numbered by the serving thread. */
export interface NumberedShadowJob {
  readonly n: number;
  readonly job: ShadowWorkerJob;
}

/** One job's result in a batch of answers: its answer, or its error's code or class name only. */
export type NumberedShadowAnswer =
  | { readonly n: number; readonly answer: ShadowWorkerAnswer }
  | { readonly n: number; readonly error: string };

/** A message to a shadow worker: run a batch of jobs, or abort job `n` (its timeout passed). */
export type ToShadowWorker =
  | { readonly type: "runs"; readonly jobs: readonly NumberedShadowJob[] }
  | { readonly type: "abort"; readonly n: number };

/** A message from a shadow worker. Errors travel as a code or a class name only, never a message. */
export type FromShadowWorker =
  | { readonly type: "ready" }
  | { readonly type: "start-failed"; readonly error: string }
  | { readonly type: "answers"; readonly answers: readonly NumberedShadowAnswer[] };

/** An error's stable code, else its class name: what may cross a thread or reach a log. */
export function errorNameOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code.slice(0, 64);
  return error instanceof Error ? error.name : typeof error;
}
