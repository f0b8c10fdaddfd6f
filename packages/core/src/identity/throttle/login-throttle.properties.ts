import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import { LOGIN_THROTTLE_DEFAULTS, type LoginThrottleLimits } from "./login-throttle.js";

/** Failed sign-ins of one account from one address before that pair is blocked for the rest of the window. */
export const THROTTLE_MAX_FAILURES_PER_ACCOUNT_AND_IP = defineProperty({
  key: "platform.auth.throttle.max-failures-per-account-and-ip",
  schema: prop.int(1, 1000),
  default: LOGIN_THROTTLE_DEFAULTS.maxFailuresPerAccountAndIp,
  description:
    "Failed sign-ins of one account from one address (IPv6: one /64) per window; then that pair gets " +
    "TOO_MANY_ATTEMPTS, while the same account from other addresses still signs in.",
});

/** Failed sign-ins from one address, across all usernames, before the address is blocked. */
export const THROTTLE_MAX_FAILURES_PER_IP = defineProperty({
  key: "platform.auth.throttle.max-failures-per-ip",
  schema: prop.int(1, 100_000),
  default: LOGIN_THROTTLE_DEFAULTS.maxFailuresPerIp,
  description:
    "Failed sign-ins from one address (IPv6: one /64) across all usernames per window; then every " +
    "sign-in from it gets TOO_MANY_ATTEMPTS (password spraying).",
});

/** How long a failure counts; a window opens at a counter's first failure. */
export const THROTTLE_WINDOW = defineProperty({
  key: "platform.auth.throttle.window",
  schema: prop.duration().refine((ms) => ms >= 1_000 && ms <= 7 * 86_400_000, "must be between 1s and 7d"),
  default: LOGIN_THROTTLE_DEFAULTS.windowMs,
  description:
    "How long failed sign-ins count, from the first failure of a counter; a block ends when its window does.",
});

/** Every property of the login throttle, for a plugin's `properties` list. */
export const THROTTLE_PROPERTIES = [
  THROTTLE_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  THROTTLE_MAX_FAILURES_PER_IP,
  THROTTLE_WINDOW,
] as const;

/** The throttle limits these properties select (for InMemoryLoginThrottle and every other adapter). */
export function throttleOptionsFromProperties(properties: PlatformProperties): LoginThrottleLimits {
  return {
    maxFailuresPerAccountAndIp: properties.get(THROTTLE_MAX_FAILURES_PER_ACCOUNT_AND_IP),
    maxFailuresPerIp: properties.get(THROTTLE_MAX_FAILURES_PER_IP),
    windowMs: properties.get(THROTTLE_WINDOW),
  };
}
