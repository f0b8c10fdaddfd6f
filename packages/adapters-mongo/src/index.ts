// @platform/adapters-mongo: MongoDB stores for @platform/core's stateful ports (issue 16, in progress).
export { type MongoPluginOptions, mongoPlugin } from "./mongo-plugin.js";
export {
  MongoSessionStore,
  type MongoSessionStoreOptions,
  type SessionDocument,
} from "./mongo-session-store.js";
export {
  MongoUserRepository,
  type MongoUserRepositoryOptions,
  type UserDocument,
} from "./mongo-user-repository.js";
// Identity stores (passkeys, WebAuthn challenges, one-time tokens, OTT generation limits, login throttle).
export {
  MongoPasskeyCredentialRepository,
  type MongoPasskeyCredentialRepositoryOptions,
  type PasskeyCredentialDocument,
  type PasskeyUserHandleDocument,
} from "./mongo-passkey-credential-repository.js";
export {
  MongoWebAuthnChallengeStore,
  type MongoWebAuthnChallengeStoreOptions,
  type WebAuthnChallengeDocument,
} from "./mongo-webauthn-challenge-store.js";
export {
  MONGO_ONE_TIME_TOKEN_DEFAULTS,
  MongoOneTimeTokenService,
  type MongoOneTimeTokenServiceOptions,
  type OneTimeTokenEntry,
  type OneTimeTokensDocument,
} from "./mongo-one-time-token-service.js";
export {
  MongoOttGenerationLimiter,
  type MongoOttGenerationLimiterOptions,
} from "./mongo-ott-generation-limiter.js";
export { MongoLoginThrottle, type MongoLoginThrottleOptions } from "./mongo-login-throttle.js";
export type { WindowCounterDocument } from "./mongo-window-counters.js";
