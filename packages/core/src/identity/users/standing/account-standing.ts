import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../authentication/authentication.js";

/**
 * Whether a sign-in still stands: its account exists, is enabled and carries the security stamp it
 * had when the user proved who they are. Every change to an account's standing (disabled, deleted,
 * password set or reset, authorities changed) gives the account a new stamp, so every session and
 * token issued before it stops standing: on this instance before the change's answer returns, on the
 * others within `platform.changes.poll-interval`. Asked on every authenticated request.
 */
export interface AccountStanding {
  /** True while the authentication's account stands as it did at sign-in. Never rejects on a miss: reads the store. */
  holds(authentication: Authentication): Promise<boolean>;
  /** A standing change of `userId` was stored: forget it here and tell the other instances. */
  changed(userId: string): Promise<void>;
}

/** DI token of the AccountStanding port. */
export const AccountStanding: InjectionToken<AccountStanding> = Symbol.for("platform.AccountStanding");

/**
 * The settled "holds" and "does not hold" an AccountStanding may hand back when it answers from
 * memory (CachedAccountStanding's fresh entry): a caller that gets one of these very promises knows
 * the answer without an `await`. Any other promise is waited on as usual. Internal: not in `/ports`.
 */
export const STANDING_HOLDS: Promise<boolean> = Promise.resolve(true);
/** See STANDING_HOLDS. */
export const STANDING_DOES_NOT_HOLD: Promise<boolean> = Promise.resolve(false);

/** The ChangeCounters topic of account standing changes. */
export const ACCOUNT_STANDING_TOPIC = "identity.account-standing";

/** A fresh security stamp (128 random bits, base64url): what a standing change writes on the account. */
export function newSecurityStamp(secret: (bytes: number) => string): string {
  return secret(16);
}
