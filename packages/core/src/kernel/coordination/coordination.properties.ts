import { defineProperty, prop } from "../properties.js";

/** How often an instance reads the ChangeCounters to drop caches another instance made stale. */
export const CHANGE_POLL_INTERVAL = defineProperty<number>({
  key: "platform.changes.poll-interval",
  schema: prop
    .duration()
    .refine((ms) => ms === 0 || (ms >= 100 && ms <= 60_000), "must be 0 (never) or between 100ms and 60s"),
  default: 2_000,
  description:
    "How often this instance reads the shared change counters (accounts' standing, administrators' " +
    "zero-trust actions) and drops what its caches hold of a changed topic, so a change made on " +
    "another instance takes effect here within this interval (0: never, for a single instance). " +
    "Keep it equal to platform.policy.refresh-interval. Changes made here take effect at once.",
});
