import type { ShadowWorkerAnswer, ShadowWorkerJob } from "./shadow-worker-engine.js";

/** A message to a shadow worker: run job `n`, or abort it (its timeout passed). */
export type ToShadowWorker =
  | { readonly type: "run"; readonly n: number; readonly job: ShadowWorkerJob }
  | { readonly type: "abort"; readonly n: number };

/** A message from a shadow worker. Errors travel as a code or a class name only, never a message. */
export type FromShadowWorker =
  | { readonly type: "ready" }
  | { readonly type: "start-failed"; readonly error: string }
  | { readonly type: "answer"; readonly n: number; readonly answer: ShadowWorkerAnswer }
  | { readonly type: "failed"; readonly n: number; readonly error: string };

/** An error's stable code, else its class name: what may cross a thread or reach a log. */
export function errorNameOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code.slice(0, 64);
  return error instanceof Error ? error.name : typeof error;
}
