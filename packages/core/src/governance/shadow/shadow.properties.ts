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

/** The shadow properties this folder adds (sample share and daily cap are in the selection properties). */
export const SHADOW_PROPERTIES = [SHADOW_COMPARISON_BATCH_SIZE] as const;
