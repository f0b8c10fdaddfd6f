import { defineProperty, prop } from "../../kernel/properties.js";

/** Whether a recovery code may take the place of a factor a flow requires by name. */
export const RECOVERY_CODE_SATISFIES_NAMED_FACTORS = defineProperty({
  key: "platform.auth.mfa.recoveryCode.satisfiesNamedFactors",
  schema: prop.bool(),
  default: false,
  description:
    "false: a recovery code never takes the place of a factor a flow requires by name (a flow offering " +
    "RECOVERY_CODE must require fewer factors than it names besides it, else the start is refused); " +
    "true: it counts like any other factor, so it may stand in for any of them.",
});

/** How recent the second factor must be for making a new set of recovery codes. */
export const RECOVERY_CODE_STEP_UP_MAX_AGE = defineProperty({
  key: "platform.auth.mfa.recoveryCode.stepUpMaxAge",
  schema: prop.duration().refine((ms) => ms >= 10_000 && ms <= 3_600_000, "must be between 10s and 1h"),
  default: 5 * 60_000,
  description:
    "Making a new set of recovery codes needs a second factor proved within this long (a fresh " +
    "step-up); older sign-ins get 401 MFA_CHALLENGE_REQUIRED and a step-up.",
});

/** Every recovery-code property. */
export const RECOVERY_CODE_PROPERTIES = [
  RECOVERY_CODE_SATISFIES_NAMED_FACTORS,
  RECOVERY_CODE_STEP_UP_MAX_AGE,
] as const;
