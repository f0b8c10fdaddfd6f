import { defineProperty, type PlatformProperties, prop } from "../kernel/properties.js";

/** Inspector, round, re-inspection and console (OSS only). */
export const PROMPT_INSPECTION_ENABLED = defineProperty({
  key: "platform.prompt-inspection.enabled",
  schema: prop.bool(),
  default: true,
  description: "Inspector, automatic round, re-inspection and their API (OSS only).",
});

/** Delay between two rounds. */
export const PROMPT_INSPECTION_INTERVAL = defineProperty({
  key: "platform.prompt-inspection.interval",
  schema: prop.duration().refine((ms) => ms >= 1_000 && ms <= 86_400_000, "must be between 1s and 1d"),
  default: 30_000,
  description: "Delay between two automatic inspection rounds.",
});

/** Delay before the first round. */
export const PROMPT_INSPECTION_INITIAL_DELAY = defineProperty({
  key: "platform.prompt-inspection.initial-delay",
  schema: prop.duration().refine((ms) => ms >= 0 && ms <= 86_400_000, "must be between 0 and 1d"),
  default: 30_000,
  description: "Delay after the start before the first automatic inspection round.",
});

/** Packages per round. */
export const PROMPT_INSPECTION_BATCH_SIZE = defineProperty({
  key: "platform.prompt-inspection.batch-size",
  schema: prop.int(1, 500),
  default: 50,
  description: "Packages inspected per round (and, besides them, per round of a re-inspection job).",
});

/** Share of sealed packages inspected. */
export const PROMPT_INSPECTION_SAMPLE_PERCENT = defineProperty({
  key: "platform.prompt-inspection.sample-percent",
  schema: prop.int(1, 100),
  default: 100,
  description: "Share of sealed packages the round inspects, by a stable hash of the package id (1 to 100).",
});

/** Canary health: the FAIL rate past which a CANARY release is rolled back. */
export const CANARY_HEALTH_FAIL_RATE = defineProperty({
  key: "platform.prompt-inspection.canary-health.fail-rate-percent",
  schema: prop.int(0, 100),
  default: 5,
  description:
    "A CANARY release whose inspected packages FAIL above this percentage is rolled back by the inspector (0 to 100).",
});

/** Canary health: the inspected packages needed before a CANARY release is judged. */
export const CANARY_HEALTH_MIN_INSPECTED = defineProperty({
  key: "platform.prompt-inspection.canary-health.min-inspected",
  schema: prop.int(1, 1_000_000),
  default: 50,
  description:
    "Packages of a CANARY release inspected PASS, FAIL or NOT_APPLICABLE before its FAIL rate is judged.",
});

/** Canary health on or off. */
export const CANARY_HEALTH_ENABLED = defineProperty({
  key: "platform.prompt-inspection.canary-health.enabled",
  schema: prop.bool(),
  default: true,
  description: "Roll a CANARY release back automatically when its inspected FAIL rate passes the threshold.",
});

/** Every property of the inspection, for the plugin's list. */
export const PROMPT_INSPECTION_PROPERTIES = [
  PROMPT_INSPECTION_ENABLED,
  PROMPT_INSPECTION_INTERVAL,
  PROMPT_INSPECTION_INITIAL_DELAY,
  PROMPT_INSPECTION_BATCH_SIZE,
  PROMPT_INSPECTION_SAMPLE_PERCENT,
  CANARY_HEALTH_ENABLED,
  CANARY_HEALTH_FAIL_RATE,
  CANARY_HEALTH_MIN_INSPECTED,
];

/** The inspection's settings, read once. */
export interface PromptInspectionSettings {
  readonly enabled: boolean;
  readonly intervalMs: number;
  readonly initialDelayMs: number;
  readonly batchSize: number;
  readonly samplePercent: number;
  readonly canaryHealth: {
    readonly enabled: boolean;
    readonly failRatePercent: number;
    readonly minInspected: number;
  };
}

/** Reads the settings. */
export function promptInspectionSettings(properties: PlatformProperties): PromptInspectionSettings {
  return {
    enabled: properties.get(PROMPT_INSPECTION_ENABLED),
    intervalMs: properties.get(PROMPT_INSPECTION_INTERVAL),
    initialDelayMs: properties.get(PROMPT_INSPECTION_INITIAL_DELAY),
    batchSize: properties.get(PROMPT_INSPECTION_BATCH_SIZE),
    samplePercent: properties.get(PROMPT_INSPECTION_SAMPLE_PERCENT),
    canaryHealth: {
      enabled: properties.get(CANARY_HEALTH_ENABLED),
      failRatePercent: properties.get(CANARY_HEALTH_FAIL_RATE),
      minInspected: properties.get(CANARY_HEALTH_MIN_INSPECTED),
    },
  };
}
