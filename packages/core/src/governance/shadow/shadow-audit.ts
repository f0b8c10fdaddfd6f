/** The audit event types of shadow runs (principal `system`; never the input or the prompts). */
export const SHADOW_AUDIT = Object.freeze({
  /** A shadow run finished and was compared: `data.agreed`, the two actions, the SHADOW version. */
  ran: "prompt-quality.shadow.ran",
  /** A shadow run failed or timed out (`data.reason`); nothing was sealed or compared for it. */
  failed: "prompt-quality.shadow.failed",
  /** A SHADOW release of a version this build does not run was skipped (once per version). */
  skipped: "prompt-quality.shadow.skipped",
  /** A batch of comparisons was recorded as SHADOW_COMPARISON evidence (`data.runs`, `data.agreed`). */
  batchRecorded: "prompt-quality.shadow.batch-recorded",
});
