import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";

/**
 * Everything a policy expression may look at, and nothing else: expressions are compiled to closures
 * over this object only (no globals, no prototype walking, no host objects).
 */
export interface EvaluationContext {
  /** The caller; undefined for anonymous requests. */
  readonly authentication: Authentication | undefined;
  /** The caller's remote address (IPv4, IPv6 or IPv4-mapped IPv6), as the HTTP binding saw it. */
  readonly remoteAddress: string;
  /** Decision time, epoch milliseconds (from the platform Clock). */
  readonly now: number;
  /** IANA time zone for time windows and days of week (`platform.policy.time-zone`). */
  readonly timeZone: string;
  /**
   * The zero-trust action for this caller; undefined when no analysis exists (or zero trust is off).
   * The #ai functions treat undefined like PENDING_ANALYSIS, except hasActionOrDefault.
   */
  readonly zeroTrustAction: ZeroTrustAction | undefined;
  /** Method protection only: the value the protected method returned (for #ownership / returnObject). */
  readonly returnObject?: unknown;
  /** Method protection only: the field of the returned entity that names its owner. */
  readonly ownerField?: string;
  /** Method protection only: the permission evaluator behind hasPermission(resource, action). */
  readonly hasPermission?: (resource: string, action: string) => boolean;
}
