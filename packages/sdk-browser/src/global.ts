// The IIFE entry (`/js/platform-mfa-sdk.js`): defines `window.PlatformMFA`.
import { ApiClient } from "./api-client.js";
import { Client } from "./client.js";
import type { InterceptorHandle, InterceptorOptions } from "./interceptor/install-interceptor.js";
import { PlatformMfaError } from "./platform-mfa-error.js";
import { SDK_VERSION } from "./version.js";

/** Options of `PlatformMFA.installInterceptor`: the interceptor's, plus the Client to use. */
export interface GlobalInterceptorOptions extends InterceptorOptions {
  /** The Client that completes challenges; default a new one (`autoRedirect: false`, the page's config). */
  client?: Client;
}

/** What `window.PlatformMFA` holds. */
export interface PlatformMfaGlobal {
  readonly version: string;
  readonly Client: typeof Client;
  readonly ApiClient: typeof ApiClient;
  readonly PlatformMfaError: typeof PlatformMfaError;
  /** Installs the fetch/XHR step-up interceptor (`handle.client` dispatches its events). */
  readonly installInterceptor: (options?: GlobalInterceptorOptions) => InterceptorHandle;
}

declare global {
  interface Window {
    PlatformMFA: PlatformMfaGlobal;
  }
}

window.PlatformMFA = Object.freeze({
  version: SDK_VERSION,
  Client,
  ApiClient,
  PlatformMfaError,
  installInterceptor: ({ client, ...options }: GlobalInterceptorOptions = {}) =>
    (client ?? new Client({ autoRedirect: false })).installInterceptor(options),
});
