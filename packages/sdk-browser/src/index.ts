// The ES module face of the browser SDK (`platform-mfa-sdk.esm.js`); the IIFE build is global.ts.
export {
  ApiClient,
  type ApiClientObserver,
  type ApiClientOptions,
  type ApiOperation,
  type ApiRequest,
  type InitOptions,
} from "./api-client.js";
export { fromBase64url, toBase64url } from "./base64url.js";
export {
  CLIENT_EVENTS,
  Client,
  type ClientEventDetail,
  type ClientEventType,
  type ClientOptions,
} from "./client.js";
export { DEFAULT_CSRF_HEADER, csrfToken, type CsrfToken } from "./csrf.js";
export { DEVICE_ID_KEY, deviceId } from "./device-id.js";
export { isLocalUrl } from "./local-redirect.js";
export { DEFAULT_MFA_CONFIG } from "./mfa-config.js";
export { PAGE_CONFIG_ID, type PageConfig } from "./page-config.js";
export { isPlatformMfaError, PlatformMfaError } from "./platform-mfa-error.js";
export { type StoredTokens, TOKEN_KEYS, TokenStore } from "./token-store.js";
export type {
  AuthenticationResult,
  FactorResult,
  FactorType,
  MfaClientState,
  MfaConfig,
  MfaConfigOverrides,
  MfaStatus,
  PublicKeyCredentialJson,
  PublicKeyRequestOptionsJson,
  TokenPersistence,
  VerifyResult,
} from "./types.js";
export { SDK_VERSION } from "./version.js";
