import type { InjectionToken } from "tsyringe";
import type { UserAccount } from "../user-account.js";

/**
 * A feature's part of deleting an account: what it keeps about the user that must go with the account
 * (the decisions module destroys the keys of the user's sealed prompts and contexts). A family: every
 * member registered under the token runs, in registration order, after the account's sign-ins end and
 * before it is removed; a member that fails stops the deletion (nothing is removed, the administrator
 * may ask again), so a member must be idempotent.
 */
export interface AccountDeletionHook {
  /** Stable id, shown in the deletion's audit record. */
  readonly id: string;
  accountDeleting(account: UserAccount): Promise<void>;
}

/** DI token of the AccountDeletionHook family (register with `useValue`; read with resolveAll). */
export const AccountDeletionHook: InjectionToken<AccountDeletionHook> = Symbol.for(
  "platform.AccountDeletionHook",
);
