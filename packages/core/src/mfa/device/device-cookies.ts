import type { InjectionToken } from "tsyringe";
import type { HttpExchange } from "../../web/http-exchange.js";

/** Name of the cookie that makes a browser a device the platform issued an id to. */
export const DEVICE_COOKIE = "PLATFORM_DEVICE";

/** The part of an HttpExchange a device cookie is read from (an HttpExchange fits). */
export interface DeviceCookieSource {
  /** A request cookie, or undefined. */
  cookie(name: string): string | undefined;
}

/**
 * Server-issued device ids: the only way a device becomes "known" to the adaptive MFA policy. A
 * client-chosen value (the SDK's `X-Device-Id` header) is at most a hint; a caller without a valid
 * cookie (a first visit, a forged or tampered cookie, a bearer client that keeps no cookies) is a
 * new device.
 */
export interface DeviceCookies {
  /** The device id of the caller's cookie when its signature verifies, else undefined. Never throws. */
  verifiedId(exchange: DeviceCookieSource): string | undefined;
  /**
   * Sets the cookie for `deviceId` (a fresh random id when undefined) and returns the id. Called after
   * a sign-in completed; issuing again refreshes the cookie's lifetime.
   */
  issue(exchange: HttpExchange, deviceId?: string): string;
}

/** DI token of the DeviceCookies port. */
export const DeviceCookies: InjectionToken<DeviceCookies> = Symbol.for("platform.DeviceCookies");
