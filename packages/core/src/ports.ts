// @platform/core/ports: every port an adapter package implements or reads, each an interface and a
// DI token of the same name, with the record and query types of its methods and the helpers every
// adapter must share (storage keys, hashes, limits). No implementation of ours is exported here:
// the in-memory adapters and contract suites are in @platform/core/testing.

// kernel
export { type AuditEvent, AuditSink } from "./kernel/audit-sink.js";
export {
  AUDIT_QUERY_MAX_LIMIT,
  AuditLog,
  type AuditQuery,
  auditQueryLimit,
  matchesAuditQuery,
} from "./kernel/audit-log.js";
export { Clock } from "./kernel/clock.js";
export { ErrorTranslator } from "./kernel/error-translator.js";
export { EventBus, type EventListener, type PlatformEvent } from "./kernel/event-bus.js";
export { IdGenerator } from "./kernel/id-generator.js";
export { type DependencyHealth, HealthIndicator } from "./kernel/health-indicator.js";
export { KeyStore, type StoredKey } from "./kernel/keys/key-store.js";
export { ChangeCounters } from "./kernel/coordination/change-counters.js";
export { AccountStanding } from "./identity/users/standing/account-standing.js";
export { DistributedLock, type LeaseGrant } from "./kernel/coordination/distributed-lock.js";
export { type LogFields, Logger } from "./kernel/logger.js";

// identity: users, sessions, credentials, tokens, throttling
export type { NewUserAccount, UserAccount } from "./identity/users/user-account.js";
export {
  USER_LIST_DEFAULT_LIMIT,
  USER_LIST_MAX_LIMIT,
  type UserListQuery,
  UserRepository,
} from "./identity/users/user-repository.js";
export { usernameKey, usernameSkeleton } from "./identity/users/username-key.js";
export { AccountUnlockHook } from "./identity/users/admin/account-unlock-hook.js";
export { PasswordResetTokenService } from "./identity/users/admin/password-reset-tokens.js";
export { PasswordHasher } from "./identity/password/password-hasher.js";
export { LogoutHook } from "./identity/login/logout-hook.js";
export { SignInFailureHook } from "./identity/authentication/sign-in-failure-hook.js";
export {
  SignInMethod,
  type SignInFilterInput,
  type SignInHandlers,
  type SignInPlan,
} from "./identity/chain/sign-in-method.js";
export type { ChainRoute, RouteMount } from "./identity/chain/chain-route.js";
export {
  ChainHook,
  type HookedChain,
  type PrimaryAuthenticationParts,
} from "./identity/chain/chain-hook.js";
export { PrimaryAuthenticator } from "./identity/login/primary-authenticator.js";
export { type SessionRecord, SessionStore, type SessionSummary } from "./identity/session/session-store.js";
export { SecurityContextRepository } from "./identity/context/security-context-repository.js";
export { CsrfTokenRepository } from "./identity/csrf/csrf-token-repository.js";
export {
  type SubjectCheckpoint,
  SubjectStatusCheck,
  type SubjectStatusQuery,
} from "./identity/authentication/subject-status-check.js";
export {
  LOGIN_THROTTLE_DEFAULTS,
  LoginThrottle,
  type LoginThrottleLimits,
  type ThrottleKey,
  type ThrottleVerdict,
} from "./identity/throttle/login-throttle.js";
export {
  type ThrottleStorageKeys,
  throttleAccountKey,
  throttleAddressKey,
  throttleKeys,
} from "./identity/throttle/throttle-keys.js";
export {
  type ConsumeOneTimeTokenRequest,
  type GenerateOneTimeTokenRequest,
  hashOneTimeTokenValue,
  type OneTimeToken,
  OneTimeTokenService,
  oneTimeToken,
} from "./identity/ott/one-time-token-service.js";
export { OneTimeTokenDelivery, type OneTimeTokenMessage } from "./identity/ott/one-time-token-delivery.js";
export {
  OTT_GENERATION_LIMITS_DEFAULTS,
  type OttGenerationKey,
  OttGenerationLimiter,
  type OttGenerationLimits,
  type OttGenerationVerdict,
} from "./identity/ott/ott-generation-limiter.js";
export type {
  NewPasskeyCredential,
  PasskeyCredential,
  PasskeyDeviceType,
} from "./identity/passkey/passkey-credential.js";
export { PasskeyCredentialRepository } from "./identity/passkey/passkey-credential-repository.js";
export {
  type WebAuthnChallenge,
  type WebAuthnChallengePurpose,
  WebAuthnChallengeStore,
} from "./identity/passkey/webauthn-challenge-store.js";
export {
  hashRefreshToken,
  type NewRefreshTokenRecord,
  type RefreshTokenAuthentication,
  type RefreshTokenRecord,
  type RefreshTokenRotation,
  type RefreshTokenStatus,
  RefreshTokenStore,
} from "./identity/tokens/refresh-token-store.js";
export { RevokedAccessTokenStore } from "./identity/tokens/revoked-token-store.js";
export { JwtKeySource } from "./identity/tokens/jwt-key-source.js";

// mfa
export type {
  CompletedFactor,
  FactorChallenge,
  FactorContext,
  FactorHistoryEntry,
  NewFactorContextInput,
} from "./mfa/state/factor-context.js";
export { FactorContextRepository } from "./mfa/state/factor-context-repository.js";
export { MfaLockouts } from "./mfa/flow/mfa-lockouts.js";
export { MfaPolicyProvider } from "./mfa/decision/mfa-policy-provider.js";
export { MfaEventListener } from "./mfa/events/mfa-event-listener.js";
export type { Escalation, EscalationStatus } from "./mfa/escalation/escalation.js";
export { EscalationStore } from "./mfa/escalation/escalation-store.js";
export type { SignInHistory } from "./mfa/adaptive/sign-in-history.js";
export {
  SIGN_IN_HISTORY_LIMITS,
  type SignInFailure,
  SignInHistoryStore,
  type SignInSuccess,
} from "./mfa/adaptive/sign-in-history-store.js";
export {
  RiskAnalyzer,
  type RiskAssessment,
  type RiskInput,
  type RiskSignal,
} from "./mfa/adaptive/risk-analyzer.js";
export { DeviceCookies, type DeviceCookieSource } from "./mfa/device/device-cookies.js";

// authz
export type {
  ApprovalStatus,
  NewPolicy,
  Policy,
  PolicyChanges,
  PolicyCondition,
  PolicyEffect,
  PolicyHttpMethod,
  PolicyRule,
  PolicySource,
  PolicyTarget,
  TargetType,
} from "./authz/policy/policy.js";
export { type PolicyFilter, PolicyRepository } from "./authz/policy/policy-repository.js";
export { PolicyRetrievalPoint } from "./authz/policy/policy-retrieval-point.js";
export {
  type PolicyChange,
  PolicyChangeListener,
  type PolicyChangeType,
} from "./authz/policy/policy-change-listener.js";
export { UrlAuthorizationManager } from "./authz/pdp/url-authorization-manager.js";
export {
  MethodAuthorizationManager,
  type MethodDecision,
} from "./authz/method/method-authorization-manager.js";
export { PermissionEvaluator } from "./authz/method/permission-evaluator.js";
export {
  ZERO_TRUST_LIST_DEFAULT_LIMIT,
  ZERO_TRUST_LIST_MAX_LIMIT,
  type ZeroTrustActionListOptions,
  type ZeroTrustActionRecord,
  type ZeroTrustActionRecordInput,
  type ZeroTrustActionSource,
  ZeroTrustActionStore,
} from "./authz/zerotrust/zero-trust-action-store.js";
export {
  ZERO_TRUST_ANALYSIS_MISSING_EVENT,
  type ZeroTrustAnalysisMissingPayload,
} from "./authz/zerotrust/zero-trust-events.js";

// decisions: the pipeline's seam to the model side, the decision history and the evidence store
export {
  DecisionMaker,
  FallbackDecisionMaker,
  type DecisionModelInfo,
  type DecisionOutcome,
  type DecisionRequest,
} from "./decisions/pipeline/decision-maker.js";
export type { DecisionAction } from "./decisions/engine/decision-record.js";
export type { DecisionReason } from "./decisions/inspector/response-inspector.js";
export {
  DECISION_HISTORY_MAX_LIMIT,
  type DecisionHistoryRecord,
  DecisionHistoryStore,
} from "./decisions/history/decision-history-store.js";
export {
  EVIDENCE_RECENT_MAX_LIMIT,
  type EvidenceMetadata,
  type EvidencePackage,
  SealedEvidenceStore,
  type SentPrompt,
} from "./decisions/evidence/sealed-evidence-store.js";
