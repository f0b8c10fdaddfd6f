import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import type { ZeroTrustActionRecord } from "./zero-trust-action-store.js";
import type { ZeroTrustMode } from "./zero-trust.properties.js";

/** Whom to resolve the zero-trust action for. */
export interface ZeroTrustResolveInput {
  /** The caller; undefined for anonymous requests (never evaluated). */
  readonly authentication: Authentication | undefined;
  /**
   * A non-secret handle of the caller's session (e.g. a hash of the session id), looked up as
   * `session:<handle>` when session tracking is on. Never the session cookie's value.
   */
  readonly sessionId?: string;
  /**
   * Evaluate even when `sampling.rate` would skip this request: the identity checkpoints (sign-in,
   * refresh, step-up, `/api/me`) are rare and must never be sampled out.
   */
  readonly unsampled?: true;
  /**
   * Do not announce a missing analysis (ZERO_TRUST_ANALYSIS_MISSING_EVENT) on this read: the sign-in
   * checkpoint, whose completed sign-in is announced right after and decided in its own right (a
   * sampled-request event first would have the sign-in coalesced into it).
   */
  readonly quiet?: true;
}

/**
 * Why a resolution is what it is. Not evaluated: `disabled`, `anonymous`, `not-sampled`. From the
 * store or the hot-path cache: `blocked` (a user BLOCK, which beats everything), `session` (the
 * session's record), `user` (the user's record), `no-analysis` (no record: action undefined). The
 * store failed: `timeout`, `error` (PENDING_ANALYSIS, or the last record read when `stale`).
 */
export type ZeroTrustResolutionReason =
  | "disabled"
  | "anonymous"
  | "not-sampled"
  | "blocked"
  | "session"
  | "user"
  | "no-analysis"
  | "timeout"
  | "error";

/** The zero-trust action of one request. Resolutions may be shared between requests: never mutate one. */
export interface ZeroTrustResolution {
  /** undefined: no analysis (or not evaluated). The #ai functions treat undefined like PENDING_ANALYSIS. */
  readonly action: ZeroTrustAction | undefined;
  /** The record the action came from. */
  readonly record?: ZeroTrustActionRecord;
  /** False when zero trust is disabled, the caller anonymous, or the request not sampled. */
  readonly evaluated: boolean;
  readonly mode: ZeroTrustMode;
  readonly reason: ZeroTrustResolutionReason;
  /** The store failed and this is the last unexpired record this process read (stale-if-error). */
  readonly stale?: true;
}

/** Where sampling draws from: a number in [0, 1), like Math.random. */
export type ZeroTrustRandom = () => number;

/** DI token of the sampling randomness (register `{ useValue: Math.random }`; tests pass a fixed sequence). */
export const ZeroTrustRandom: InjectionToken<ZeroTrustRandom> = Symbol.for("platform.ZeroTrustRandom");
