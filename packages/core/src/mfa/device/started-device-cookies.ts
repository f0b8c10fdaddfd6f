import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { DeviceCookieSource, DeviceCookies } from "./device-cookies.js";

/**
 * DeviceCookies whose key is read at start (from the KeyRing, which is asynchronous): `start` gives it
 * the working cookies; before that every call fails closed with DEPENDENCY_MISSING.
 */
export class StartedDeviceCookies implements DeviceCookies {
  private inner: DeviceCookies | undefined;

  /** Installs the cookies built on the loaded key. */
  start(cookies: DeviceCookies): void {
    this.inner = cookies;
  }

  verifiedId(exchange: DeviceCookieSource): string | undefined {
    return this.started().verifiedId(exchange);
  }

  issue(exchange: HttpExchange, deviceId?: string): string {
    return this.started().issue(exchange, deviceId);
  }

  private started(): DeviceCookies {
    if (!this.inner) {
      throw new PlatformError("DEPENDENCY_MISSING", "Device cookies are used before the platform started");
    }
    return this.inner;
  }
}
