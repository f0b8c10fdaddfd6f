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
export type {
  PolicyCounterDocument,
  PolicyDocument,
  PolicySearchKeys,
} from "./mongo-policy-document.js";
export { MongoPolicyRepository, type MongoPolicyRepositoryOptions } from "./mongo-policy-repository.js";
