import { z } from "zod";
import { defineProperty, prop } from "../kernel/properties.js";

/** Registry, gate, rollback and their API, on or off together. */
export const PROMPT_GOVERNANCE_ENABLED = defineProperty<boolean>({
  key: "platform.prompt.governance.enabled",
  schema: z.boolean(),
  default: true,
  description: "Release registry, release gate, rollback and the release API, on or off together.",
});

/** How long an emergency stop waits for a second administrator before it is marked UNRATIFIED. */
export const EMERGENCY_APPROVAL_DEADLINE = defineProperty<number>({
  key: "platform.prompt.governance.emergency.approval-deadline",
  schema: prop
    .duration()
    .refine((ms) => ms >= 60_000 && ms <= 30 * 86_400_000, "must be between 1 minute and 30 days"),
  default: 86_400_000,
  description:
    "Time an emergency stop waits for another administrator's approval; past it the stop stays in force, marked UNRATIFIED.",
});

/** How often the deadline job looks for emergency stops past their deadline. */
export const EMERGENCY_DEADLINE_CHECK_INTERVAL = defineProperty<number>({
  key: "platform.prompt.governance.emergency.check-interval",
  schema: prop
    .duration()
    .refine((ms) => ms >= 1_000 && ms <= 3_600_000, "must be between 1 second and 1 hour"),
  default: 60_000,
  description: "How often open emergency stops are checked against their approval deadline.",
});
