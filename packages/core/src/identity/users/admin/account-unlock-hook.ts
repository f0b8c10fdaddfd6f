import type { InjectionToken } from "tsyringe";
import type { UserAccount } from "../user-account.js";

/**
 * A feature's part of an administrator's unlock: the identity module clears the login throttle's
 * counters for the account, the MFA module its lockout. A family: every member registered under
 * the token runs (in registration order) after the account's `locked` flag is cleared.
 */
export interface AccountUnlockHook {
  /** Stable id, shown in the unlock's audit record. */
  readonly id: string;
  unlock(account: UserAccount): Promise<void>;
}

/** DI token of the AccountUnlockHook family (register with `useValue`; read with resolveAll). */
export const AccountUnlockHook: InjectionToken<AccountUnlockHook> = Symbol.for("platform.AccountUnlockHook");
