import type { InjectionToken } from "tsyringe";

/** Who asks for a token: the submitted username (any form) and the client address. */
export interface OttGenerationKey {
  /** As submitted; adapters count by `usernameKey`, so `Alice` and ` alice ` are one account. */
  username: string;
  /** The client address (IPv6 counts by /64, as in the login throttle). */
  remoteAddress: string;
}

/** Whether a generation request may go ahead; when not, how long to wait and which counter blocks. */
export type OttGenerationVerdict =
  | { allowed: true }
  | { allowed: false; retryAfterMs: number; scope: "user" | "ip" };

/** The limits every OttGenerationLimiter applies; see `OTT_GENERATION_LIMITS_DEFAULTS`. */
export interface OttGenerationLimits {
  /** Generation requests for one username per window. Default 3. */
  maxPerUser: number;
  /** Generation requests from one address per window. Default 20. */
  maxPerIp: number;
  /** Window length in milliseconds. Default 15 minutes. */
  windowMs: number;
}

/** Default limits: 3 per username and 20 per address per 15 minutes. */
export const OTT_GENERATION_LIMITS_DEFAULTS: Readonly<OttGenerationLimits> = Object.freeze({
  maxPerUser: 3,
  maxPerIp: 20,
  windowMs: 15 * 60_000,
});

/**
 * Rate-limits token generation, so nobody can flood a mailbox or the token store. Two fixed-window
 * counters per request: the username (across addresses: that is what protects a mailbox) and the
 * address (across usernames). Every request counts, whether or not the account exists, and the limiter
 * never asks the user store, so a 429 tells nothing about accounts. The price of a per-user counter:
 * whoever knows a username can use up its budget and keep that user from getting new links for a
 * window (not from signing in otherwise); the per-address counter bounds how many users one address
 * can do this to. A blocked request is not counted, so hammering does not prolong a block.
 * The `describeOttGenerationLimiterContract` suite (`@keyward/core/testing`) pins this for every adapter.
 */
export interface OttGenerationLimiter {
  /** Counts the request on both counters and allows it, or refuses it without counting. Atomic. */
  acquire(key: OttGenerationKey): Promise<OttGenerationVerdict>;
}

/** DI token of the OttGenerationLimiter port. */
export const OttGenerationLimiter: InjectionToken<OttGenerationLimiter> = Symbol.for(
  "platform.OttGenerationLimiter",
);
