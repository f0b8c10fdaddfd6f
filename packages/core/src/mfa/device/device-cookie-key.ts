import { randomBytes } from "node:crypto";
import type { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { DEVICE_COOKIE_SECRET } from "./device-cookie.properties.js";
import { MIN_DEVICE_COOKIE_KEY_BYTES } from "./hmac-device-cookies.js";

const BASE64URL_PREFIX = "base64url:";

/** A device-cookie key and whether it was generated at start (per process) rather than configured. */
export interface DeviceCookieKey {
  readonly key: Uint8Array;
  readonly generated: boolean;
}

/**
 * The device-cookie key from `platform.auth.device-cookie.secret`: `base64url:<data>` is decoded,
 * any other text is taken as its UTF-8 bytes; at least 32 bytes. Empty: a random key is generated
 * and a warning logged, since cookies signed with it are refused by every other instance and after a
 * restart (every browser is a new device again). Errors and the warning never contain the secret.
 */
export function loadDeviceCookieKey(secret: string, logger: Logger): DeviceCookieKey {
  const text = secret.trim();
  if (text === "") {
    logger.warn(
      `No device-cookie key configured: generated one at start. Device cookies are per process: other ` +
        `instances and a restart will not recognise them, so every device looks new to adaptive MFA; ` +
        `set ${DEVICE_COOKIE_SECRET.key} (the same on every instance) to keep them.`,
    );
    return { key: new Uint8Array(randomBytes(MIN_DEVICE_COOKIE_KEY_BYTES)), generated: true };
  }
  let key: Uint8Array;
  if (text.startsWith(BASE64URL_PREFIX)) {
    const encoded = text.slice(BASE64URL_PREFIX.length);
    if (!/^[A-Za-z0-9_-]*$/.test(encoded)) {
      throw invalid(`${DEVICE_COOKIE_SECRET.key} after ${BASE64URL_PREFIX} is not base64url`);
    }
    key = new Uint8Array(Buffer.from(encoded, "base64url"));
  } else {
    key = new TextEncoder().encode(text);
  }
  if (key.length < MIN_DEVICE_COOKIE_KEY_BYTES) {
    throw invalid(
      `${DEVICE_COOKIE_SECRET.key} must be at least ${MIN_DEVICE_COOKIE_KEY_BYTES} bytes (it has ${key.length})`,
    );
  }
  return { key, generated: false };
}

function invalid(message: string): PlatformError {
  return new PlatformError("CONFIGURATION_INVALID", message, { details: { key: DEVICE_COOKIE_SECRET.key } });
}
