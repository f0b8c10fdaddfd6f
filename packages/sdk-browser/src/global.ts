// The IIFE entry (`/js/platform-mfa-sdk.js`): defines `window.PlatformMFA`.
import { ApiClient } from "./api-client.js";
import { Client } from "./client.js";
import { PlatformMfaError } from "./platform-mfa-error.js";
import { SDK_VERSION } from "./version.js";

/** What `window.PlatformMFA` holds. */
export interface PlatformMfaGlobal {
  readonly version: string;
  readonly Client: typeof Client;
  readonly ApiClient: typeof ApiClient;
  readonly PlatformMfaError: typeof PlatformMfaError;
}

declare global {
  interface Window {
    PlatformMFA: PlatformMfaGlobal;
  }
}

window.PlatformMFA = Object.freeze({ version: SDK_VERSION, Client, ApiClient, PlatformMfaError });
