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
