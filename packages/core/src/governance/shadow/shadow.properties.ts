import { z } from "zod";
import { defineProperty, prop } from "../../kernel/properties.js";

/** Shadow runs per SHADOW_COMPARISON evidence record (partial batches are recorded at stop). */
export const SHADOW_COMPARISON_BATCH_SIZE = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.shadow.comparison-batch-size",
  schema: prop.int(1, 10_000),
  default: 50,
  description:
    "Shadow runs compared per SHADOW_COMPARISON record in the release evidence ledger; a partial batch is " +
    "recorded when the platform stops. Each run lands in one record, so the gate sums them across instances.",
});

/** Where shadow runs spend their CPU: WORKER (a worker thread, for the built-in analyst) or IN_THREAD. */
export const SHADOW_EXECUTOR = defineProperty<"WORKER" | "IN_THREAD">({
  key: "platform.security.tiered.prompt-bundle.shadow.executor",
  schema: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase().replace("-", "_") : v),
    z.enum(["WORKER", "IN_THREAD"], "must be WORKER or IN_THREAD"),
  ) as z.ZodType<"WORKER" | "IN_THREAD">,
  default: "WORKER",
  description:
    "Where shadow runs of the built-in analyst run: WORKER (a worker thread with its own engine, off the " +
    "serving thread; runs go to the serving thread while it starts or if it fails, logged and counted) or " +
    "IN_THREAD. A model behind HTTP always runs in-thread (its shadow run is I/O).",
});

/** The share of the day's shadow cap one requester may take (the canary's requester key). */
export const SHADOW_REQUESTER_SHARE_PERCENT = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.shadow.requester-share-percent",
  schema: prop.int(1, 100),
  default: 10,
  description:
    "The share of shadow.daily-call-cap one requester (the user, else the session, else the event, as the " +
    "canary counts them) may take per UTC day, at least one run; 100 lets one requester take the whole cap.",
});

/** The shadow properties this folder adds (sample share and daily cap are in the selection properties). */
export const SHADOW_PROPERTIES = [
  SHADOW_COMPARISON_BATCH_SIZE,
  SHADOW_EXECUTOR,
  SHADOW_REQUESTER_SHARE_PERCENT,
] as const;
