export {
  PasswordAuthenticator,
  type PasswordAuthenticatorOptions,
  type PasswordLoginInput,
} from "./authentication/password-authenticator.js";
export {
  currentAuthentication,
  setCurrentAuthentication,
  type Authentication,
  type AuthenticationFactor,
  type AuthenticationMethod,
} from "./authentication/authentication.js";
export { DEFAULT_FAILURE_TYPE, FAILURE_TYPES, failureTypeOf } from "./authentication/failure-type.js";
export {
  type SubjectCheckpoint,
  SubjectStatusCheck,
  type SubjectStatusGate,
  type SubjectStatusQuery,
  subjectStatusChecksOf,
  subjectStatusGate,
} from "./authentication/subject-status-check.js";
export {
  AsepAttributes,
  type ArgumentResolver,
  type ErrorResponseEntity,
  type ResultWriter,
  type SecurityErrorHandler,
} from "./asep/security-error-handling.js";
export { attachToContainer, type ContainerAware } from "./chain/container-aware.js";
export { CHAIN_ATTRIBUTE, FilterChainProxy } from "./chain/filter-chain-proxy.js";
export type { NextFilter, SecurityFilter } from "./chain/security-filter.js";
export { SecurityFilterChain } from "./chain/security-filter-chain.js";
export {
  NullSecurityContextRepository,
  SecurityContextRepository,
} from "./context/security-context-repository.js";
export { HttpSessionSecurityContextRepository } from "./context/http-session-security-context-repository.js";
export {
  csrfHiddenInput,
  csrfMetaTags,
  csrfToken,
  CsrfTokenRepository,
  SessionCsrfTokenRepository,
} from "./csrf/index.js";
export { DEFAULT_URLS } from "./dsl/default-urls.js";
export { FormLoginOptions, RestLoginOptions } from "./dsl/form-login-options.js";
export { MfaOptions } from "./dsl/mfa-options.js";
export { OttLoginOptions, PasskeyLoginOptions } from "./dsl/ott-options.js";
export {
  SecurityRegistry,
  securityRegistry,
  type ChainDefinition,
  type SecurityConfiguration,
} from "./dsl/security-registry.js";
export type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "./handlers/authentication-handlers.js";
export {
  type AuthorizationDecision,
  type AuthorizationManager,
  rules,
} from "./http-security/authorization-manager.js";
export { HttpSecurity, type SessionCreationPolicy } from "./http-security/http-security.js";
export { LogoutHook } from "./login/logout-hook.js";
export { PrimaryAuthenticator } from "./login/primary-authenticator.js";
export {
  createIdentityPlugin,
  identityPlugin,
  SecurityConfigurationToken,
  TokenServiceToken,
  type IdentityPluginOptions,
} from "./identity-plugin.js";
export * from "./password/index.js";
export { SessionManager, SessionStore, InMemorySessionStore } from "./session/index.js";
export { LoginThrottle, InMemoryLoginThrottle } from "./throttle/index.js";
export {
  ConfiguredJwtKeySource,
  JwtKeySource,
  type JwtKeys,
  TokenService,
  type TokenPair,
} from "./tokens/index.js";
export * from "./users/index.js";
export * from "./users/admin/index.js";
export {
  ConsoleOneTimeTokenDelivery,
  DeliveringGenerationSuccessHandler,
  InMemoryOneTimeTokenService,
  InMemoryOttGenerationLimiter,
  OneTimeTokenDelivery,
  OneTimeTokenService,
  OttGenerationLimiter,
  OutboxOneTimeTokenDelivery,
  type OneTimeToken,
  type OneTimeTokenGenerationSuccessHandler,
  type OneTimeTokenMessage,
} from "./ott/index.js";
export {
  InMemoryPasskeyCredentialRepository,
  InMemoryWebAuthnChallengeStore,
  PASSKEY_COUNTER_REGRESSION_EVENT,
  PASSKEY_DELETED_EVENT,
  PASSKEY_REGISTERED_EVENT,
  PasskeyCredentialRepository,
  PasskeyService,
  WebAuthnChallengeStore,
  type PasskeyCredential,
} from "./passkey/index.js";
export { PUBLIC_URL } from "./public-url.properties.js";
export { OTT_OUTBOX_FILE } from "./ott/ott.properties.js";
