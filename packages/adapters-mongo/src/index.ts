// @keyward/adapters-mongo: MongoDB stores for @keyward/core's stateful ports (issue 16, in progress).
export { type MigrationReport, MONGO_MIGRATIONS, type MongoMigration } from "./mongo-migrations.js";
export { type MongoPluginOptions, mongoPlugin } from "./mongo-plugin.js";
export { MONGO_PROPERTIES, MONGO_URI } from "./mongo-properties.js";
export { META_COLLECTION } from "./mongo-schema.js";
export { describeMongoUri, OWNED_CLIENT_DEFAULTS, type OwnedClientTimeout } from "./mongo-uri.js";
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
// Token and key stores (refresh-token families, revoked access tokens, keys, audit trail).
export {
  AUDIT_RETENTION_DEFAULT_MS,
  type AuditEventDocument,
  MongoAuditTrail,
  type MongoAuditTrailOptions,
} from "./mongo-audit-trail.js";
export { type KeyDocument, MongoKeyStore, type MongoKeyStoreOptions } from "./mongo-key-store.js";
export {
  MongoRefreshTokenStore,
  type MongoRefreshTokenStoreOptions,
  type RefreshTokenDocument,
} from "./mongo-refresh-token-store.js";
export {
  MongoRevokedAccessTokenStore,
  type MongoRevokedAccessTokenStoreOptions,
  type RevokedAccessTokenDocument,
} from "./mongo-revoked-access-token-store.js";
// MFA and authorization stores
export {
  type MfaLockoutDocument,
  MongoMfaLockouts,
  type MongoMfaLockoutsOptions,
} from "./mongo-mfa-lockouts.js";
export {
  MongoZeroTrustActionStore,
  type MongoZeroTrustActionStoreOptions,
  type ZeroTrustActionDocument,
} from "./mongo-zero-trust-action-store.js";
export {
  type FactorContextDocument,
  MongoFactorContextRepository,
  type MongoFactorContextRepositoryOptions,
  type StoredFactorContext,
} from "./mongo-factor-context-repository.js";
export {
  type EscalationDocument,
  MongoEscalationStore,
  type MongoEscalationStoreOptions,
  type StoredEscalation,
} from "./mongo-escalation-store.js";
export {
  MongoSignInHistoryStore,
  type MongoSignInHistoryStoreOptions,
  type SignInHistoryDocument,
} from "./mongo-sign-in-history-store.js";
export {
  type DecisionHistoryDocument,
  MongoDecisionHistoryStore,
  type MongoDecisionHistoryStoreOptions,
} from "./mongo-decision-history-store.js";
export {
  type ChainEntryDocument,
  type CheckpointDocument,
  type DecisionRecordDocument,
  MongoSealedEvidenceStore,
  type MongoSealedEvidenceStoreOptions,
} from "./mongo-sealed-evidence-store.js";
export type {
  PolicyCounterDocument,
  PolicyDocument,
  PolicySearchKeys,
} from "./mongo-policy-document.js";
export { MongoPolicyRepository, type MongoPolicyRepositoryOptions } from "./mongo-policy-repository.js";
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
// Kernel coordination stores (lease locks, change counters).
export {
  type ChangeCounterDocument,
  MongoChangeCounters,
  type MongoChangeCountersOptions,
} from "./mongo-change-counters.js";
export {
  LOCK_HOUSEKEEPING_GRACE_SECONDS,
  type LockDocument,
  MongoDistributedLock,
  type MongoDistributedLockOptions,
} from "./mongo-distributed-lock.js";
// Read-only checks for `platform doctor`: reachable, schema version, missing indexes.
export {
  inspectMongoStore,
  type MongoInspection,
  type MongoInspectionOptions,
  type PlannedMongoIndex,
} from "./mongo-inspection.js";
