// @platform/adapters-mongo: MongoDB stores for @platform/core's stateful ports (issue 16, in progress).
export { MONGO_MIGRATIONS, type MongoMigration } from "./mongo-migrations.js";
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
