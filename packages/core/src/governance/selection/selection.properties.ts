import { defineProperty, prop } from "../../kernel/properties.js";

/** Share of decisions a SHADOW release runs on (0 to 100; 0 runs none and builds no shadow runner). */
export const SHADOW_SAMPLE_PERCENT = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.shadow.sample-percent",
  schema: prop.int(0, 100),
  default: 0,
  description:
    "Share of decisions (a stable hash of the event ID) the scope's SHADOW release also runs on, " +
    "recorded only; 0 runs none and no shadow runner exists.",
});

/** Shadow runs per UTC day, one model call each. */
export const SHADOW_DAILY_CALL_CAP = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.shadow.daily-call-cap",
  schema: prop.int(0, 10_000_000),
  default: 100,
  description:
    "Shadow runs per UTC day on this instance (one model call each); past it none runs until midnight UTC.",
});

/** How long the registry selector keeps a scope's releases before it reads them again. */
export const REGISTRY_CACHE_TTL = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.registry.cache-ttl",
  schema: prop
    .duration()
    .refine((ms) => ms >= 1_000 && ms <= 60_000, "must be between 1 second and 60 seconds"),
  default: 60_000,
  description:
    "How long the registry selector serves a scope's releases from memory before it reads them again (at most 60 s).",
});

/** How often the registry selector reads the release invalidation counter (every instance converges through the database). */
export const REGISTRY_POLL_INTERVAL = defineProperty<number>({
  key: "platform.security.tiered.prompt-bundle.registry.poll-interval",
  schema: prop
    .duration()
    .refine((ms) => ms === 0 || (ms >= 200 && ms <= 5_000), "must be 0 (never) or between 200ms and 5s"),
  default: 5_000,
  description:
    "How often the registry selector reads the shared release invalidation counter and drops the scopes it holds " +
    "when another instance changed a release (0: never, for a single instance; changes made here take effect at once).",
});

/** How often an instance writes its heartbeat (the bundles it serves per scope). */
export const HEARTBEAT_INTERVAL = defineProperty<number>({
  key: "platform.prompt.governance.heartbeat.interval",
  schema: prop
    .duration()
    .refine((ms) => ms >= 1_000 && ms <= 300_000, "must be between 1 second and 5 minutes"),
  default: 15_000,
  description:
    "How often this instance writes which bundle hash it serves per scope (read by the convergence report).",
});

/** After how long without a heartbeat the convergence report flags an instance as silent. */
export const HEARTBEAT_SILENT_AFTER = defineProperty<number>({
  key: "platform.prompt.governance.heartbeat.silent-after",
  schema: prop
    .duration()
    .refine((ms) => ms >= 3_000 && ms <= 86_400_000, "must be between 3 seconds and 1 day"),
  default: 60_000,
  description:
    "An instance whose last heartbeat is older than this is flagged SILENT by the convergence report " +
    "(keep it at least three heartbeat intervals); one silent for a day is pruned.",
});

/** Every property of run-time selection, shadow runs and convergence, for the plugin's list. */
export const SELECTION_PROPERTIES = [
  SHADOW_SAMPLE_PERCENT,
  SHADOW_DAILY_CALL_CAP,
  REGISTRY_CACHE_TTL,
  REGISTRY_POLL_INTERVAL,
  HEARTBEAT_INTERVAL,
  HEARTBEAT_SILENT_AFTER,
] as const;
