import { z } from "zod";
import { defineProperty, type PlatformProperties, prop } from "../kernel/properties.js";
import { MFA_CODE_MAX_LENGTH, MFA_CODE_MIN_LENGTH } from "./codes/mfa-code.js";

/** The FactorContextRepository implementations `platform.auth.mfa.repository` can select. */
export type MfaRepositoryKind = "memory";

/** The resolved MFA settings. */
export interface MfaSettings {
  readonly sessionTimeoutMs: number;
  readonly challengeTimeoutMs: number;
  readonly maxRetryAttempts: number;
  readonly accountLockoutDurationMs: number;
  readonly otpTokenValiditySeconds: number;
  readonly otpTokenLength: number;
  readonly minimumRejectionDelayMs: number;
  readonly requiredAuthorities: readonly string[];
  readonly repository: MfaRepositoryKind;
  readonly passkeySatisfiesMfa: boolean;
}

/** The defaults of the MFA settings (`platform.auth.mfa.*`, docs/properties.md). */
export const MFA_SETTINGS_DEFAULTS: MfaSettings = Object.freeze({
  sessionTimeoutMs: 10 * 60_000,
  challengeTimeoutMs: 5 * 60_000,
  maxRetryAttempts: 5,
  accountLockoutDurationMs: 15 * 60_000,
  otpTokenValiditySeconds: 300,
  otpTokenLength: 6,
  minimumRejectionDelayMs: 500,
  requiredAuthorities: Object.freeze(["ROLE_ADMIN"]),
  repository: "memory",
  passkeySatisfiesMfa: false,
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function durationBetween(min: number, max: number, rule: string): z.ZodType<number> {
  return prop.duration().refine((ms) => ms >= min && ms <= max, rule);
}

/** How long one MFA flow may take from the primary login. */
export const MFA_SESSION_TIMEOUT = defineProperty({
  key: "platform.auth.mfa.sessionTimeoutMs",
  schema: durationBetween(MINUTE, 24 * HOUR, "must be between 1m and 24h"),
  default: MFA_SETTINGS_DEFAULTS.sessionTimeoutMs,
  description:
    "Age after which an MFA flow ends in MFA_TIMEOUT; a request for a flow that already ended or was " +
    "removed gets MFA_SESSION_EXPIRED. e.g. PT10M.",
});

/** How long one factor challenge stays open. */
export const MFA_CHALLENGE_TIMEOUT = defineProperty({
  key: "platform.auth.mfa.challengeTimeoutMs",
  schema: durationBetween(30_000, HOUR, "must be between 30s and 1h"),
  default: MFA_SETTINGS_DEFAULTS.challengeTimeoutMs,
  description: "Age after which an open factor challenge expires and the flow returns to factor selection.",
});

/** Failed factor attempts allowed per MFA flow. */
export const MFA_MAX_RETRY_ATTEMPTS = defineProperty({
  key: "platform.auth.mfa.maxRetryAttempts",
  schema: prop.int(1, 20),
  default: MFA_SETTINGS_DEFAULTS.maxRetryAttempts,
  description:
    "Failed factor verifications per MFA flow; the failure that reaches this number ends the flow in " +
    "MFA_ACCOUNT_LOCKED for accountLockoutDurationMs.",
});

/** How long MFA lockout lasts. */
export const MFA_ACCOUNT_LOCKOUT_DURATION = defineProperty({
  key: "platform.auth.mfa.accountLockoutDurationMs",
  schema: durationBetween(1_000, 7 * 24 * HOUR, "must be between 1s and 7d"),
  default: MFA_SETTINGS_DEFAULTS.accountLockoutDurationMs,
  description:
    "How long a user stays locked after maxRetryAttempts failures; enforced at the next primary login " +
    "on every chain. e.g. PT15M.",
});

/** How long an MFA code works. */
export const MFA_OTP_TOKEN_VALIDITY_SECONDS = defineProperty({
  key: "platform.auth.mfa.otpTokenValiditySeconds",
  schema: prop.int(30, 3600),
  default: MFA_SETTINGS_DEFAULTS.otpTokenValiditySeconds,
  description: "Seconds an MFA one-time code is accepted after it was generated.",
});

/** Digits of an MFA code. */
export const MFA_OTP_TOKEN_LENGTH = defineProperty({
  key: "platform.auth.mfa.otpTokenLength",
  schema: prop.int(MFA_CODE_MIN_LENGTH, MFA_CODE_MAX_LENGTH),
  default: MFA_SETTINGS_DEFAULTS.otpTokenLength,
  description: `Digits of an MFA one-time code (${MFA_CODE_MIN_LENGTH} to ${MFA_CODE_MAX_LENGTH}); codes are numeric.`,
});

/** The minimum duration of every MFA rejection. */
export const MFA_MINIMUM_REJECTION_DELAY = defineProperty({
  key: "platform.auth.mfa.minimumRejectionDelayMs",
  schema: durationBetween(0, 5_000, "must be between 0 and 5s"),
  default: MFA_SETTINGS_DEFAULTS.minimumRejectionDelayMs,
  description:
    "Every MFA rejection is padded to at least this long from the request's start, so failures of " +
    "different causes take alike long; 0 disables the padding (tests only).",
});

const AUTHORITY = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A comma-separated list of authorities (or an array in code/JSON); empty entries are dropped. */
const authorityList: z.ZodType<readonly string[]> = z
  .union([z.string(), z.array(z.string())], { error: "must be a comma-separated list of authorities" })
  .transform((raw, ctx) => {
    const items = (typeof raw === "string" ? raw.split(",") : raw).map((s) => s.trim()).filter(Boolean);
    const bad = items.filter((s) => !AUTHORITY.test(s));
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: "each authority must be 1-128 characters of letters, digits, _ . : -",
      });
      return z.NEVER;
    }
    return Object.freeze([...new Set(items)]);
  });

/** The authorities that require MFA under the default policy. */
export const MFA_REQUIRED_AUTHORITIES = defineProperty<readonly string[]>({
  key: "platform.auth.mfa.requiredAuthorities",
  schema: authorityList,
  default: MFA_SETTINGS_DEFAULTS.requiredAuthorities,
  description:
    "Comma-separated authorities whose holders DefaultMfaPolicyProvider challenges (e.g. ROLE_ADMIN," +
    "ROLE_OPS); empty means nobody. A host's own MfaPolicyProvider may ignore it.",
});

/** Which FactorContextRepository holds MFA flows. */
export const MFA_REPOSITORY = defineProperty<MfaRepositoryKind>({
  key: "platform.auth.mfa.repository",
  schema: z.enum(["memory"], { error: "must be memory (the only FactorContextRepository so far)" }),
  default: MFA_SETTINGS_DEFAULTS.repository,
  description:
    "FactorContextRepository used when the host registers none: memory (one process; flows are lost on " +
    "restart). Other values are refused until an adapter exists.",
});

/** Whether a user-verified passkey sign-in is MFA by itself. */
export const MFA_PASSKEY_SATISFIES_MFA = defineProperty({
  key: "platform.auth.mfa.passkeySatisfiesMfa",
  schema: prop.bool(),
  default: MFA_SETTINGS_DEFAULTS.passkeySatisfiesMfa,
  description:
    "true: a passkey sign-in with user verification counts as MFA on its own (the device is possession, " +
    "its PIN or biometric is knowledge or inherence); false: it is a primary factor like a password.",
});

/** Every MFA property, for a plugin's `properties` list. */
export const MFA_PROPERTIES = [
  MFA_SESSION_TIMEOUT,
  MFA_CHALLENGE_TIMEOUT,
  MFA_MAX_RETRY_ATTEMPTS,
  MFA_ACCOUNT_LOCKOUT_DURATION,
  MFA_OTP_TOKEN_VALIDITY_SECONDS,
  MFA_OTP_TOKEN_LENGTH,
  MFA_MINIMUM_REJECTION_DELAY,
  MFA_REQUIRED_AUTHORITIES,
  MFA_REPOSITORY,
  MFA_PASSKEY_SATISFIES_MFA,
] as const;

/** Reads the MFA settings from resolved properties. */
export function mfaSettingsFromProperties(properties: PlatformProperties): MfaSettings {
  return Object.freeze({
    sessionTimeoutMs: properties.get(MFA_SESSION_TIMEOUT),
    challengeTimeoutMs: properties.get(MFA_CHALLENGE_TIMEOUT),
    maxRetryAttempts: properties.get(MFA_MAX_RETRY_ATTEMPTS),
    accountLockoutDurationMs: properties.get(MFA_ACCOUNT_LOCKOUT_DURATION),
    otpTokenValiditySeconds: properties.get(MFA_OTP_TOKEN_VALIDITY_SECONDS),
    otpTokenLength: properties.get(MFA_OTP_TOKEN_LENGTH),
    minimumRejectionDelayMs: properties.get(MFA_MINIMUM_REJECTION_DELAY),
    requiredAuthorities: properties.get(MFA_REQUIRED_AUTHORITIES),
    repository: properties.get(MFA_REPOSITORY),
    passkeySatisfiesMfa: properties.get(MFA_PASSKEY_SATISFIES_MFA),
  });
}
