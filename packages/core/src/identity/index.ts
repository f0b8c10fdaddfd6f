// @platform/core/identity: the identity module's services a host calls, the default adapters of its
// ports (for a host to compose or wrap; the ports themselves are in /ports) and the types of what
// they take and answer. Filters, property definitions and helpers stay inside the module.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./identity-error-codes.js";

// Extending the registry DSL and the static rules (how the MFA plugin adds `.mfa()` and `recentFactor`)
export {
  MethodOptions,
  type MethodKind,
  type SignInMethodKinds,
} from "./dsl/method-options.js";
export type { StateStep } from "./dsl/security-registry.js";
export { SecurityRegistryMethod } from "./dsl/security-registry-method.js";
export {
  type AuthorizationRules,
  authorizationRules,
  type ContributedRules,
  type StepUpChallenge,
} from "./http-security/authorization-manager.js";
export { ContributedRule } from "./http-security/contributed-rule.js";
export { type ChallengeAnswer, withChallengeAnswer } from "./asep/challenge-answer.js";

// Authentication and the filter chains
export {
  PasswordAuthenticator,
  type PasswordAuthenticatorOptions,
  type PasswordLoginInput,
} from "./authentication/password-authenticator.js";
export {
  AsepAttributes,
  type ArgumentResolver,
  type ErrorResponseEntity,
  type ResultWriter,
  type SecurityErrorHandler,
} from "./asep/security-error-handling.js";
export { FilterChainProxy } from "./chain/filter-chain-proxy.js";
export type { NextFilter, SecurityFilter } from "./chain/security-filter.js";
export { SecurityFilterChain } from "./chain/security-filter-chain.js";
export type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "./handlers/authentication-handlers.js";
export { HttpSessionSecurityContextRepository } from "./context/http-session-security-context-repository.js";
export { NullSecurityContextRepository } from "./context/security-context-repository.js";
export {
  SessionCsrfTokenRepository,
  type SessionCsrfTokenRepositoryOptions,
} from "./csrf/session-csrf-token-repository.js";

// Sessions and tokens
export {
  InMemorySessionStore,
  type InMemorySessionStoreOptions,
} from "./session/in-memory-session-store.js";
export { SessionManager, type SessionManagerOptions } from "./session/session-manager.js";
export {
  InMemoryLoginThrottle,
  type InMemoryLoginThrottleOptions,
} from "./throttle/in-memory-login-throttle.js";
export { ConfiguredJwtKeySource } from "./tokens/configured-jwt-key-source.js";
export { JWT_ALGORITHMS, type JwtAlgorithm, type JwtKeys } from "./tokens/jwt-keys.js";
export {
  InMemoryRefreshTokenStore,
  type InMemoryRefreshTokenStoreOptions,
} from "./tokens/in-memory-refresh-token-store.js";
export {
  InMemoryRevokedAccessTokenStore,
  type InMemoryRevokedAccessTokenStoreOptions,
} from "./tokens/in-memory-revoked-token-store.js";
export {
  type RevokeResult,
  type TokenPair,
  TokenService,
  type TokenServiceOptions,
} from "./tokens/token-service.js";

// Passwords and users
export {
  formatScryptHash,
  parseScryptHash,
  SCRYPT_LIMITS,
  type ScryptEncodedHash,
  type ScryptParameters,
  scryptMaxmem,
} from "./password/scrypt-encoded-hash.js";
export {
  MAX_PASSWORD_LENGTH,
  SCRYPT_DEFAULTS,
  ScryptPasswordHasher,
  type ScryptPasswordHasherOptions,
} from "./password/scrypt-password-hasher.js";
export {
  InMemoryUserRepository,
  type InMemoryUserRepositoryOptions,
} from "./users/in-memory-user-repository.js";
export { checkNewUsername } from "./users/check-new-username.js";
export { type StoredUserFields, userAccountFrom } from "./users/user-account-from.js";
export { normalizeUsername } from "./users/username-key.js";
export { UserAdministration, userAdminApi } from "./users/admin/user-admin-api.js";
export { type RestoredAdministrator, restoreAdministrator } from "./users/admin/restore-administrator.js";
export {
  type NewUserRequest,
  UserAdministrationService,
  type UserView,
} from "./users/admin/user-administration-service.js";

// One-time tokens
export {
  ConsoleOneTimeTokenDelivery,
  type ConsoleOneTimeTokenDeliveryOptions,
} from "./ott/console-one-time-token-delivery.js";
export {
  DeliveringGenerationSuccessHandler,
  type DeliveringGenerationSuccessHandlerOptions,
} from "./ott/delivering-generation-success-handler.js";
export {
  InMemoryOneTimeTokenService,
  type InMemoryOneTimeTokenServiceOptions,
} from "./ott/in-memory-one-time-token-service.js";
export {
  InMemoryOttGenerationLimiter,
  type InMemoryOttGenerationLimiterOptions,
} from "./ott/in-memory-ott-generation-limiter.js";
export { type MagicLinkOptions, magicLinkFor } from "./ott/magic-link.js";
export type { OneTimeTokenGenerationSuccessHandler } from "./ott/one-time-token-generation-success-handler.js";
export {
  DEFAULT_OTT_OUTBOX_FILE,
  OutboxOneTimeTokenDelivery,
  type OutboxOneTimeTokenDeliveryOptions,
} from "./ott/outbox-one-time-token-delivery.js";

// Passkeys
export {
  InMemoryPasskeyCredentialRepository,
  type InMemoryPasskeyCredentialRepositoryOptions,
} from "./passkey/in-memory-passkey-credential-repository.js";
export {
  InMemoryWebAuthnChallengeStore,
  type InMemoryWebAuthnChallengeStoreOptions,
} from "./passkey/in-memory-webauthn-challenge-store.js";
export {
  PASSKEY_COUNTER_REGRESSION_EVENT,
  PASSKEY_DELETED_EVENT,
  PASSKEY_REGISTERED_EVENT,
  PasskeyService,
  type PasskeyServiceOptions,
} from "./passkey/passkey-service.js";
export { OTT_OUTBOX_FILE } from "./ott/ott.properties.js";

// Events identity publishes (not awaited): a completed primary sign-in, a denied request
export {
  ACCESS_DENIED_EVENT,
  type AccessDeniedPayload,
  SIGN_IN_COMPLETED_EVENT,
  type SignInCompletedPayload,
} from "./events/identity-events.js";
