import type { UserAccount } from "../../identity/users/user-account.js";
import { USER_LIST_MAX_LIMIT, type UserRepository } from "../../identity/users/user-repository.js";

/** The authority of an administrator. */
export const ADMIN_AUTHORITY = "ROLE_ADMIN";

/** An enabled, unlocked account holding ROLE_ADMIN. */
export function isActiveAdmin(account: UserAccount): boolean {
  return account.enabled && !account.locked && account.authorities.includes(ADMIN_AUTHORITY);
}

/**
 * Knows whether blocking a user would leave no active administrator: true when the account is an
 * active administrator and no other account is. Reads the UserRepository page by page and stops at
 * the first other active administrator.
 */
export class LastAdminGuard {
  constructor(private readonly users: Pick<UserRepository, "findById" | "list">) {}

  /** True when `userId` is the only enabled, unlocked ROLE_ADMIN. */
  async isLastActiveAdmin(userId: string): Promise<boolean> {
    const account = await this.users.findById(userId);
    if (account === undefined || !isActiveAdmin(account)) return false;
    for (let offset = 0; ; offset += USER_LIST_MAX_LIMIT) {
      const page = await this.users.list({ offset, limit: USER_LIST_MAX_LIMIT });
      if (page.some((a) => a.id !== userId && isActiveAdmin(a))) return false;
      if (page.length < USER_LIST_MAX_LIMIT) return true;
    }
  }
}
