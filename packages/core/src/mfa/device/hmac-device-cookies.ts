import { createHmac } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { DEVICE_COOKIE, type DeviceCookieSource, type DeviceCookies } from "./device-cookies.js";

/** Options of HmacDeviceCookies. */
export interface HmacDeviceCookiesOptions {
  /** The HMAC-SHA256 key, at least 32 bytes; the same on every instance that serves the site. */
  readonly key: Uint8Array;
  /** The cookie's Max-Age in seconds (`platform.auth.device-cookie.max-age`). */
  readonly maxAgeSeconds: number;
  /** Makes new device ids (`secret(16)`: 128 random bits). */
  readonly ids: IdGenerator;
}

/** Shortest device-cookie key accepted, in bytes (as long as the HMAC-SHA256 output). */
export const MIN_DEVICE_COOKIE_KEY_BYTES = 32;

const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const MAC_LENGTH = 43;
const MAX_COOKIE_LENGTH = 64 + 1 + MAC_LENGTH;

/**
 * The default DeviceCookies: `PLATFORM_DEVICE=<deviceId>.<mac>`, where the id is 128 random bits and
 * the mac is HMAC-SHA256(key, `platform.device:<deviceId>`) in base64url, compared in constant time.
 * The cookie is HttpOnly (scripts never see it), SameSite=Lax, Path=/, Secure on https, with a long
 * Max-Age. Every instance configured with the same key accepts the others' cookies.
 */
export class HmacDeviceCookies implements DeviceCookies {
  private readonly key: Uint8Array;
  private readonly maxAgeSeconds: number;
  private readonly ids: IdGenerator;

  constructor(options: HmacDeviceCookiesOptions) {
    if (options.key.length < MIN_DEVICE_COOKIE_KEY_BYTES) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `The device-cookie key must be at least ${MIN_DEVICE_COOKIE_KEY_BYTES} bytes`,
      );
    }
    if (!Number.isInteger(options.maxAgeSeconds) || options.maxAgeSeconds < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "The device cookie's max age must be >= 1 second");
    }
    this.key = Uint8Array.from(options.key);
    this.maxAgeSeconds = options.maxAgeSeconds;
    this.ids = options.ids;
  }

  verifiedId(exchange: DeviceCookieSource): string | undefined {
    const value = exchange.cookie(DEVICE_COOKIE);
    if (value === undefined || value.length > MAX_COOKIE_LENGTH) return undefined;
    const dot = value.indexOf(".");
    if (dot < 0) return undefined;
    const id = value.slice(0, dot);
    const mac = value.slice(dot + 1);
    if (!DEVICE_ID.test(id) || mac.length !== MAC_LENGTH) return undefined;
    return constantTimeEquals(this.macOf(id), mac) ? id : undefined;
  }

  issue(exchange: HttpExchange, deviceId?: string): string {
    const id = deviceId !== undefined && DEVICE_ID.test(deviceId) ? deviceId : this.ids.secret(16);
    exchange.setCookie({
      name: DEVICE_COOKIE,
      value: `${id}.${this.macOf(id)}`,
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Lax",
      path: "/",
      maxAge: this.maxAgeSeconds,
    });
    return id;
  }

  private macOf(id: string): string {
    return createHmac("sha256", this.key).update(`platform.device:${id}`, "utf8").digest("base64url");
  }
}
