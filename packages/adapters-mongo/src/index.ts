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
