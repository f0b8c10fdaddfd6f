import type { InjectionToken } from "tsyringe";

/** Whose failed sign-ins a throttle counts: the submitted username (any form) and the client address. */
export interface ThrottleKey {
  /** The username as submitted; adapters count by `usernameKey`, so `Alice` and ` alice ` are one account. */
  username: string;
  /** The client address the HTTP binding saw (IPv4 or IPv6 text). */
  remoteAddress: string;
}

/**
 * Whether a sign-in attempt may go ahead. When not, `retryAfterMs` (> 0) is how long until the blocking
 * counter's window ends, and `scope` names that counter: the (account, address) pair or the address.
 */
export type ThrottleVerdict =
  | { allowed: true }
  | { allowed: false; retryAfterMs: number; scope: "account-ip" | "ip" };

/** The limits every LoginThrottle adapter applies; see `LOGIN_THROTTLE_DEFAULTS`. */
export interface LoginThrottleLimits {
  /** Failures of one account from one address allowed per window. Default 5. */
  maxFailuresPerAccountAndIp: number;
  /** Failures from one address across all usernames allowed per window. Default 50. */
  maxFailuresPerIp: number;
  /** Length of a window in milliseconds. Default 15 minutes. */
  windowMs: number;
}

/** The default limits: 5 per (account, address), 50 per address, 15-minute windows. */
export const LOGIN_THROTTLE_DEFAULTS: Readonly<LoginThrottleLimits> = Object.freeze({
  maxFailuresPerAccountAndIp: 5,
  maxFailuresPerIp: 50,
  windowMs: 15 * 60_000,
});

/**
 * Counts failed primary sign-ins and says when to stop accepting more. Two counters per attempt: one
 * for the (normalised username, address) pair and one for the address across all usernames. There is
 * deliberately no per-account counter across addresses: an attacker could trip it and lock the real
 * user out. Unknown usernames are counted exactly like known ones (the throttle never asks the user
 * store), so its answers reveal nothing about which accounts exist.
 *
 * Windows are fixed and open at a key's first failure: a counter counts failures for `windowMs` from
 * the first one, then vanishes (blocked attempts are not failures, so hammering does not prolong a
 * block). Adapters derive their storage keys with `throttleKeys` so that every adapter counts the same
 * things. A MongoDB adapter keeps one document per key `{ _id, count, windowStart, expiresAt }` with a
 * TTL index on `expiresAt`; `recordFailure` is one upsert with a pipeline update ("reset to 1 if the
 * window ended, else increment"), so concurrent failures on several instances are all counted.
 * The `describeLoginThrottleContract` suite pins these semantics for every adapter.
 */
export interface LoginThrottle {
  /** Whether an attempt for `key` may be made now. Never records anything. */
  check(key: ThrottleKey): Promise<ThrottleVerdict>;
  /** Counts one failed attempt on both the (account, address) and the address counter. */
  recordFailure(key: ThrottleKey): Promise<void>;
  /**
   * Clears the (account, address) counter after a successful sign-in. The address counter is kept:
   * otherwise an attacker could reset his address budget by signing in to an account of his own
   * between guesses at other accounts.
   */
  recordSuccess(key: ThrottleKey): Promise<void>;
  /**
   * Clears every (account, address) counter of `username` (any form of it), from every address: an
   * administrator's unlock. Address counters are kept (they protect other accounts too).
   */
  clearAccount(username: string): Promise<void>;
}

/** DI token of the LoginThrottle port. */
export const LoginThrottle: InjectionToken<LoginThrottle> = Symbol.for("platform.LoginThrottle");
