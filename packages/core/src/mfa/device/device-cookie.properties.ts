import { z } from "zod";
import { defineProperty, prop } from "../../kernel/properties.js";

const DAY = 24 * 60 * 60_000;

/** The HMAC key of device cookies; empty means one generated at start (per process). */
export const DEVICE_COOKIE_SECRET = defineProperty<string>({
  key: "platform.auth.device-cookie.secret",
  schema: z.string({ error: "must be a string" }),
  default: "",
  description:
    "HMAC-SHA256 key of the PLATFORM_DEVICE cookie, at least 32 bytes, as UTF-8 text or `base64url:<data>`; " +
    "the same on every instance. Empty: generated at start (a warning is logged). Secret: never log it.",
});

/** How long a browser keeps its device cookie. */
export const DEVICE_COOKIE_MAX_AGE = defineProperty<number>({
  key: "platform.auth.device-cookie.max-age",
  schema: prop.duration().refine((ms) => ms >= DAY && ms <= 400 * DAY, "must be between 1 day and 400 days"),
  default: 365 * DAY,
  description:
    "Max-Age of the PLATFORM_DEVICE cookie (1 to 400 days, browsers cap it at 400); each completed " +
    "sign-in renews it. A device whose cookie expired is a new device again.",
});

/** Every device-cookie property, for a plugin's `properties` list. */
export const DEVICE_COOKIE_PROPERTIES = [DEVICE_COOKIE_SECRET, DEVICE_COOKIE_MAX_AGE] as const;
