// @keyward/core/ports: the ports a host or an adapter package implements, replaces or resolves, each
// an interface and a DI token of the same name, with the record and query types their methods name.
// Nothing else: no implementation of ours (a test checks it holds no class), no helper (what adapters
// share with the defaults is in /adapter-kit), and no seam between the core's own modules (those ports'
// signatures name the core's internal types, so no host could implement them).

// kernel
export { type AuditEvent, AuditSink } from "./kernel/audit-sink.js";
export { AuditListener } from "./kernel/audit-listener.js";
export { AuditLog, type AuditQuery } from "./kernel/audit-log.js";
export { Clock } from "./kernel/clock.js";
export { ErrorTranslator } from "./kernel/error-translator.js";
export { EventBus, type PlatformEvent } from "./kernel/event-bus.js";
export { IdGenerator } from "./kernel/id-generator.js";
export { type DependencyHealth, HealthIndicator } from "./kernel/health-indicator.js";
export { KeyStore, type StoredKey } from "./kernel/keys/key-store.js";
export { ChangeCounters } from "./kernel/coordination/change-counters.js";
export { DistributedLock, type LeaseGrant } from "./kernel/coordination/distributed-lock.js";
export { type LogFields, Logger } from "./kernel/logger.js";

// identity: users, sessions, credentials, tokens, throttling, and the families a host may join
export type { NewUserAccount, UserAccount } from "./identity/users/user-account.js";
export { type UserListQuery, UserRepository } from "./identity/users/user-repository.js";
export { AccountUnlockHook } from "./identity/users/admin/account-unlock-hook.js";
export { PasswordResetTokenService } from "./identity/users/admin/password-reset-tokens.js";
export { PasswordHasher } from "./identity/password/password-hasher.js";
export { AccountStanding } from "./identity/users/standing/account-standing.js";
export { LogoutHook } from "./identity/login/logout-hook.js";
export { SignInFailureHook } from "./identity/authentication/sign-in-failure-hook.js";
export { PrimaryAuthenticator } from "./identity/login/primary-authenticator.js";
export { type SessionRecord, SessionStore, type SessionSummary } from "./identity/session/session-store.js";
export { CsrfTokenRepository } from "./identity/csrf/csrf-token-repository.js";
export {
  SubjectStatusCheck,
  type SubjectStatusQuery,
} from "./identity/authentication/subject-status-check.js";
export {
  LoginThrottle,
  type LoginThrottleLimits,
  type ThrottleKey,
  type ThrottleVerdict,
} from "./identity/throttle/login-throttle.js";
export {
  type ConsumeOneTimeTokenRequest,
  type GenerateOneTimeTokenRequest,
  type OneTimeToken,
  OneTimeTokenService,
} from "./identity/ott/one-time-token-service.js";
export { OneTimeTokenDelivery, type OneTimeTokenMessage } from "./identity/ott/one-time-token-delivery.js";
export {
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
  type NewRefreshTokenRecord,
  type RefreshTokenAuthentication,
  type RefreshTokenRecord,
  type RefreshTokenRotation,
  type RefreshTokenStatus,
  RefreshTokenStore,
} from "./identity/tokens/refresh-token-store.js";
export { RevokedAccessTokenStore } from "./identity/tokens/revoked-token-store.js";
export { JwtKeySource } from "./identity/tokens/jwt-key-source.js";
export type { JwtKeys } from "./identity/tokens/jwt-keys.js";

// mfa
export { DeviceCookies } from "./mfa/device/device-cookies.js";
export type { FactorContext } from "./mfa/state/factor-context.js";
export { FactorContextRepository } from "./mfa/state/factor-context-repository.js";
export { MfaLockouts } from "./mfa/flow/mfa-lockouts.js";
export { type TotpEnrolment, TotpEnrolmentStore } from "./factors/totp/totp-enrolment-store.js";
export { MfaPolicyProvider } from "./mfa/decision/mfa-policy-provider.js";
export { MfaDecision } from "./mfa/decision/mfa-decision.js";
export { Factor } from "./mfa/factor-family/factor.js";
export type { MfaPolicyContext } from "./mfa/decision/mfa-policy-context.js";
export { MfaEventListener } from "./mfa/events/mfa-event-listener.js";
export type { MfaStateMachineEvent } from "./mfa/events/mfa-state-machine-events.js";
export type { Escalation, EscalationStatus } from "./mfa/escalation/escalation.js";
export { EscalationStore } from "./mfa/escalation/escalation-store.js";
export type { SignInHistory } from "./mfa/adaptive/sign-in-history.js";
export {
  type SignInFailure,
  SignInHistoryStore,
  type SignInSuccess,
} from "./mfa/adaptive/sign-in-history-store.js";
export {
  RiskAnalyzer,
  type RiskAssessment,
  type RiskInput,
} from "./mfa/adaptive/risk-analyzer.js";

// factors
export { RecoveryCodeStore } from "./factors/recovery-codes/recovery-code-store.js";

// authz
export type { NewPolicy, Policy, PolicyChanges } from "./authz/policy/policy.js";
export { type PolicyFilter, PolicyRepository } from "./authz/policy/policy-repository.js";
export { PolicyRetrievalPoint } from "./authz/policy/policy-retrieval-point.js";
export { PolicyRevisionRepository } from "./authz/policy/policy-revision-repository.js";
// Its record, filter and page types are reached through its methods' signatures (the surface cap).
export { ManagedResourceRepository } from "./resources/managed-resource-repository.js";
// The PDP a host may replace (`anyRequest().access(dynamicAuthorization())` delegates to it).
export type { CombiningAlgorithm } from "./authz/pdp/combining-algorithm.js";
export type { PolicySetReport } from "./authz/pdp/compiled-policy-set.js";
export type { PolicyDecision } from "./authz/pdp/policy-decision.js";
export type { RequestFacts } from "./authz/pdp/policy-evaluation.js";
export { UrlAuthorizationManager } from "./authz/pdp/url-authorization-manager.js";
export {
  type PolicyChange,
  PolicyChangeListener,
} from "./authz/policy/policy-change-listener.js";
export { PermissionEvaluator } from "./authz/method/permission-evaluator.js";
// The namer of scanned resources a host may bring (the offline and OpenAI-compatible ones are built in).
export { ResourceNamer } from "./resources/resource-namer.js";
export {
  type ZeroTrustActionListOptions,
  type ZeroTrustActionRecord,
  type ZeroTrustActionRecordInput,
  ZeroTrustActionStore,
} from "./authz/zerotrust/zero-trust-action-store.js";

// decisions: the model a host brings, the decision history and the evidence store
export { type DecisionBudget, DecisionModel } from "./decisions/model/decision-model.js";
export {
  type DecisionHistoryRecord,
  DecisionHistoryStore,
} from "./decisions/history/decision-history-store.js";
export { type EvidencePackage, SealedEvidenceStore } from "./decisions/evidence/sealed-evidence-store.js";
export { BundleSelector } from "./decisions/pipeline/bundle-selector.js";

// governance: the release registry and its evidence (their record and query types are reached
// through the methods' signatures: the surface cap)
export { ReleaseRegistry } from "./governance/registry/release-registry.js";
export { ReleaseEvidenceLedger } from "./governance/evidence/release-evidence-ledger.js";
export { InstanceHeartbeatStore } from "./governance/convergence/instance-heartbeat-store.js";
export { RequestScopeResolver } from "./governance/selection/request-scope-resolver.js";

// inspection: where inspection results are kept, and the host's check of prompt facts (SOURCE_TRUTH)
export { InspectionResultStore } from "./inspection/results/inspection-result-store.js";
export { PromptFactSourceVerifier } from "./inspection/prompt-fact-source-verifier.js";
