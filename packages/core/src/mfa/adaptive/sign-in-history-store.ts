import type { InjectionToken } from "tsyringe";
import type { SignInHistory } from "./sign-in-history.js";

/** A completed sign-in to remember. */
export interface SignInSuccess {
  readonly userId: string;
  readonly remoteAddress: string;
  /** The device id of the server-issued device cookie (verified, or issued with this sign-in). */
  readonly deviceId: string | undefined;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** A failed primary sign-in of a known user. */
export interface SignInFailure {
  readonly userId: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

/**
 * Remembers sign-ins so a RiskAnalyzer can compare a new one with the user's past. The adaptive policy
 * only reads it; the login pipeline writes it:
 * - `recordFailure` after every failed primary sign-in of a known user;
 * - `recordSuccess` only once the whole authentication completed (MFA passed or not required), never
 *   when the policy is consulted, or an attacker holding the password would make his device and
 *   network "known" just by reaching the challenge.
 *
 * The `describeSignInHistoryStoreContract` suite (`@keyward/core/testing`) pins the semantics, with
 * the limits of `SIGN_IN_HISTORY_LIMITS`, for every adapter.
 */
export interface SignInHistoryStore {
  /** The user's history now; an empty one for a user never recorded. */
  historyOf(userId: string): Promise<SignInHistory>;
  /** Remembers the device, the network and the UTC hour, and clears the user's recent failures. */
  recordSuccess(success: SignInSuccess): Promise<void>;
  /** Counts one failed primary sign-in (counted for 15 minutes on the Clock). */
  recordFailure(failure: SignInFailure): Promise<void>;
}

/** DI token of the SignInHistoryStore port. */
export const SignInHistoryStore: InjectionToken<SignInHistoryStore> = Symbol.for(
  "platform.SignInHistoryStore",
);

/** The limits of sign-in history every adapter keeps. */
export const SIGN_IN_HISTORY_LIMITS = Object.freeze({
  /** Devices remembered per user (most recent first). */
  maxDevices: 20,
  /** Networks remembered per user (most recent first). */
  maxNetworks: 20,
  /** How long a failed sign-in counts, in milliseconds (a sliding window). */
  failureWindowMs: 15 * 60_000,
  /** Failures remembered per user; `recentFailures` saturates here (the heuristic stops at 5). */
  maxFailuresPerUser: 20,
});
