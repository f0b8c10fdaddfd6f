import { z } from "zod";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import {
  DEFAULT_SESSION_COOKIE_NAME,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SESSION_MAX_LIFETIME_MS,
  type SessionManagerOptions,
} from "./session-manager.js";

/** Idle timeout of server-side sessions. */
export const SESSION_TIMEOUT = defineProperty({
  key: "platform.session.timeout",
  schema: prop.duration().refine((ms) => ms >= 1_000, "must be at least 1 second"),
  default: DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  description: "A session ends this long after its last request (idle timeout); e.g. PT30M, 2h.",
});

/** Absolute lifetime of server-side sessions. */
export const SESSION_MAX_LIFETIME = defineProperty({
  key: "platform.session.max-lifetime",
  schema: prop.duration().refine((ms) => ms >= 60_000, "must be at least 1 minute"),
  default: DEFAULT_SESSION_MAX_LIFETIME_MS,
  description:
    "A session ends this long after its user signed in (or it began), however busy it is; the idle " +
    "timeout still applies within it; e.g. PT12H, 8h.",
});

/** Name of the one session cookie every session chain shares. */
export const SESSION_COOKIE_NAME = defineProperty({
  key: "platform.session.cookie-name",
  schema: z
    .string()
    .min(1, "must not be empty")
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be a cookie name (RFC 6265 token: no spaces, ;, = or ,)"),
  default: DEFAULT_SESSION_COOKIE_NAME,
  description: "Name of the HttpOnly session cookie shared by every session chain.",
});

/** Every session property, for a plugin's `properties` list. */
export const SESSION_PROPERTIES = [SESSION_TIMEOUT, SESSION_MAX_LIFETIME, SESSION_COOKIE_NAME] as const;

/** The SessionManager options these properties select. */
export function sessionOptionsFromProperties(
  properties: PlatformProperties,
): Pick<SessionManagerOptions, "cookieName" | "idleTimeoutMs" | "maxLifetimeMs"> {
  return {
    idleTimeoutMs: properties.get(SESSION_TIMEOUT),
    maxLifetimeMs: properties.get(SESSION_MAX_LIFETIME),
    cookieName: properties.get(SESSION_COOKIE_NAME),
  };
}
