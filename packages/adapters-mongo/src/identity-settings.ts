import type { PlatformProperties } from "@keyward/core";
import { LOGIN_THROTTLE_DEFAULTS, OTT_GENERATION_LIMITS_DEFAULTS } from "@keyward/core/adapter-kit";
import type { LoginThrottleLimits, OttGenerationLimits } from "@keyward/core/ports";
import { MONGO_ONE_TIME_TOKEN_DEFAULTS } from "./mongo-one-time-token-service.js";

/**
 * The identity properties the Mongo stores honour, by key: the core exports the definitions' readers
 * only to its own defaults, so the keys are named here (identity-stores.test.ts holds them equal to
 * what the identity plugin declares). A key no installed module declares takes the core's default.
 */
export const IDENTITY_PROPERTY_KEYS = Object.freeze({
  throttleMaxPerAccountAndIp: "platform.auth.throttle.max-failures-per-account-and-ip",
  throttleMaxPerIp: "platform.auth.throttle.max-failures-per-ip",
  throttleWindow: "platform.auth.throttle.window",
  ottTokenTtl: "platform.auth.ott.token-ttl",
  ottMaxPerUser: "platform.auth.ott.max-per-user",
  ottMaxPerIp: "platform.auth.ott.max-per-ip",
  ottRateWindow: "platform.auth.ott.rate-window",
});

/** How long a password-reset link works: the core's default reset-token service uses 30 minutes. */
export const PASSWORD_RESET_TOKEN_TTL_MS = 30 * 60_000;

/** The login-throttle limits the platform's properties select. */
export function throttleLimitsOf(properties: PlatformProperties): LoginThrottleLimits {
  const read = reader(properties);
  return {
    maxFailuresPerAccountAndIp: read(
      IDENTITY_PROPERTY_KEYS.throttleMaxPerAccountAndIp,
      LOGIN_THROTTLE_DEFAULTS.maxFailuresPerAccountAndIp,
    ),
    maxFailuresPerIp: read(IDENTITY_PROPERTY_KEYS.throttleMaxPerIp, LOGIN_THROTTLE_DEFAULTS.maxFailuresPerIp),
    windowMs: read(IDENTITY_PROPERTY_KEYS.throttleWindow, LOGIN_THROTTLE_DEFAULTS.windowMs),
  };
}

/** The OTT generation limits the platform's properties select. */
export function ottGenerationLimitsOf(properties: PlatformProperties): OttGenerationLimits {
  const read = reader(properties);
  return {
    maxPerUser: read(IDENTITY_PROPERTY_KEYS.ottMaxPerUser, OTT_GENERATION_LIMITS_DEFAULTS.maxPerUser),
    maxPerIp: read(IDENTITY_PROPERTY_KEYS.ottMaxPerIp, OTT_GENERATION_LIMITS_DEFAULTS.maxPerIp),
    windowMs: read(IDENTITY_PROPERTY_KEYS.ottRateWindow, OTT_GENERATION_LIMITS_DEFAULTS.windowMs),
  };
}

/** The magic-link lifetime the platform's properties select. */
export function ottTokenTtlOf(properties: PlatformProperties): number {
  return reader(properties)(IDENTITY_PROPERTY_KEYS.ottTokenTtl, MONGO_ONE_TIME_TOKEN_DEFAULTS.ttlMs);
}

/** Reads numeric properties by key (already validated by their definitions), else a fallback. */
function reader(properties: PlatformProperties): (key: string, fallback: number) => number {
  const values = new Map(properties.list().map((entry) => [entry.key, entry.value]));
  return (key, fallback) => {
    const value = values.get(key);
    return typeof value === "number" ? value : fallback;
  };
}
