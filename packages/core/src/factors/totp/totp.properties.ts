import { z } from "zod";
import { defineProperty, prop } from "../../kernel/properties.js";

/** Digits of an authenticator app's codes. */
export const TOTP_DIGITS = defineProperty({
  key: "platform.auth.mfa.totp.digits",
  schema: prop.int(6, 8),
  default: 6,
  description: "Digits of an authenticator app's code (6 to 8; apps expect 6).",
});

/** Seconds of one TOTP time step. */
export const TOTP_PERIOD_SECONDS = defineProperty({
  key: "platform.auth.mfa.totp.periodSeconds",
  schema: prop.int(15, 120),
  default: 30,
  description:
    "Seconds of one TOTP step (15 to 120; apps expect 30). One step of drift is accepted each way.",
});

/** The issuer an authenticator app shows beside the account name. */
export const TOTP_ISSUER = defineProperty({
  key: "platform.auth.mfa.totp.issuer",
  schema: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[^:\p{Cc}]+$/u, "no colon or control character"),
  default: "Keyward",
  description: "The issuer name written into the otpauth:// URI (the app shows it); no colon.",
});

/** How recent the second factor must be for enrolling or removing an authenticator app. */
export const TOTP_STEP_UP_MAX_AGE = defineProperty({
  key: "platform.auth.mfa.totp.stepUpMaxAge",
  schema: prop.duration().refine((ms) => ms >= 10_000 && ms <= 3_600_000, "must be between 10s and 1h"),
  default: 5 * 60_000,
  description:
    "Enrolling, confirming or removing an authenticator app needs a second factor proved within this long " +
    "(a fresh step-up); older sign-ins get 401 MFA_CHALLENGE_REQUIRED and a step-up.",
});

/** Every TOTP property. */
export const TOTP_PROPERTIES = [TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_ISSUER, TOTP_STEP_UP_MAX_AGE] as const;
