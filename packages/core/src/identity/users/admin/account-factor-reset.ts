import type { InjectionToken } from "tsyringe";
import type { UserAccount } from "../user-account.js";

/**
 * A feature that keeps second factors of an account the account itself does not hold (the MFA
 * module's plugin factors: an authenticator app, recovery codes) and can forget them: the
 * administrator's reset after a lost phone (`POST /admin/api/users/{id}/factors/reset`). A family:
 * every member runs, in registration order; each answers the factor types it removed.
 */
export interface AccountFactorReset {
  /** Stable id, shown in the reset's audit record. */
  readonly id: string;
  resetFactors(account: UserAccount): Promise<readonly string[]>;
}

/** DI token of the AccountFactorReset family (register members; read with resolveAll). */
export const AccountFactorReset: InjectionToken<AccountFactorReset> = Symbol.for(
  "platform.AccountFactorReset",
);
