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
export { Client, type ClientOptions } from "./client.js";
export { CLIENT_EVENTS, type ClientEventDetail, type ClientEventType } from "./client-events.js";
export { DEFAULT_CSRF_HEADER, csrfToken, type CsrfToken } from "./csrf.js";
export { DEVICE_ID_KEY, deviceId } from "./device-id.js";
export type { FactorEndpoint, FactorEndpoints } from "./factor-endpoints.js";
export {
  type InterceptorHandle,
  type InterceptorOptions,
  installInterceptor,
} from "./interceptor/install-interceptor.js";
export { OVERLAY_HOST_ID } from "./interceptor/overlay-markup.js";
export {
  type AnswerVerdict,
  classifyAnswer,
  PLATFORM_CODE_RULES,
  type PlatformCodeAction,
  type PlatformCodeRule,
} from "./interceptor/platform-codes.js";
export { RESUME_KEY } from "./interceptor/resume-record.js";
export {
  IDEMPOTENCY_KEY_HEADER,
  type RetryDecision,
  type RetryReason,
  type RetryUnsafe,
  retryDecision,
  SAFE_METHODS,
} from "./interceptor/retry-policy.js";
export type {
  BlockedAnswer,
  ChallengeHandler,
  InterceptedRequest,
  StepUpChallenge,
} from "./interceptor/step-up-challenge.js";
export { showStepUpOverlay } from "./interceptor/step-up-overlay.js";
export { isLocalUrl } from "./local-redirect.js";
export { type PasskeyMediation, PasskeyCeremony } from "./passkey-ceremony.js";
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
