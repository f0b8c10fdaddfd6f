export { InMemoryUserRepository, type InMemoryUserRepositoryOptions } from "./in-memory-user-repository.js";
export type { NewUserAccount, UserAccount } from "./user-account.js";
export { UserRepository } from "./user-repository.js";
export { normalizeUsername, usernameKey } from "./username-key.js";
