import type { UserAccount } from "./user-account.js";

/** What a UserRepository keeps of an account besides its id (a store may keep the id elsewhere, e.g. `_id`). */
export type StoredUserFields = Omit<UserAccount, "id" | "passwordHash"> & {
  passwordHash?: string | undefined;
};

/**
 * The UserAccount a repository hands out for what it stores: only the account's fields, in a fresh
 * object with its own authorities array, so a caller changing the answer never changes the store.
 */
export function userAccountFrom(id: string, stored: StoredUserFields): UserAccount {
  return {
    id,
    username: stored.username,
    passwordHash: stored.passwordHash,
    authorities: [...stored.authorities],
    enabled: stored.enabled,
    locked: stored.locked,
    ...(stored.securityStamp === undefined ? {} : { securityStamp: stored.securityStamp }),
    ...(stored.email === undefined ? {} : { email: stored.email }),
    version: stored.version,
    createdAt: stored.createdAt,
  };
}
