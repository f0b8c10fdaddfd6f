import { randomBytes } from "node:crypto";
import type { KeyRing } from "../../kernel/keys/key-ring.js";
import { secretBytesOf } from "../../kernel/keys/secret-text.js";
import type { Logger } from "../../kernel/logger.js";
import { DEVICE_COOKIE_SECRET } from "./device-cookie.properties.js";
import { MIN_DEVICE_COOKIE_KEY_BYTES } from "./hmac-device-cookies.js";

/** The KeyStore purpose of the device-cookie key. */
export const DEVICE_COOKIE_KEY_PURPOSE = "mfa.device-cookie";

/** A device-cookie key and whether it dies with the process (generated, or kept in a process-local store). */
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
    warnProcessLocal(logger);
    return { key: new Uint8Array(randomBytes(MIN_DEVICE_COOKIE_KEY_BYTES)), generated: true };
  }
  return {
    key: secretBytesOf(text, DEVICE_COOKIE_SECRET.key, MIN_DEVICE_COOKIE_KEY_BYTES),
    generated: false,
  };
}

/**
 * The device-cookie key: the configured secret (as `loadDeviceCookieKey`), or, when none is, the key
 * kept in the KeyRing (made by the first instance, shared by every instance on a durable KeyStore),
 * with the warning when the store dies with the process.
 */
export async function deviceCookieKeyOf(
  secret: string,
  ring: KeyRing,
  logger: Logger,
): Promise<DeviceCookieKey> {
  if (secret.trim() !== "") return loadDeviceCookieKey(secret, logger);
  const kept = await ring.active(DEVICE_COOKIE_KEY_PURPOSE, () => ({
    kid: randomBytes(12).toString("base64url"),
    algorithm: "HMAC-SHA256",
    secret: new Uint8Array(randomBytes(MIN_DEVICE_COOKIE_KEY_BYTES)),
  }));
  if (!ring.durable) warnProcessLocal(logger);
  return { key: kept.secret, generated: !ring.durable };
}

function warnProcessLocal(logger: Logger): void {
  logger.warn(
    `No device-cookie key configured: generated one at start. Device cookies are per process: other ` +
      `instances and a restart will not recognise them, so every device looks new to adaptive MFA; ` +
      `set ${DEVICE_COOKIE_SECRET.key} (the same on every instance) or use a durable key store to keep them.`,
  );
}
