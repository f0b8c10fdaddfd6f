import { PlatformError } from "../../kernel/platform-error.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import type { ZeroTrustSubjectKind } from "./zero-trust-subject.js";
import type { ZeroTrustSettings } from "./zero-trust.properties.js";

/**
 * Default lifetimes of a stored action: ALLOW 15 s, CHALLENGE 1800 s, ESCALATE 300 s. BLOCK has no
 * fixed lifetime: it comes from the properties (see zeroTrustTtlOf); PENDING_ANALYSIS is 0 s, i.e.
 * never stored without an explicit ttl.
 */
export const ZERO_TRUST_DEFAULT_TTL_MS: Readonly<Record<Exclude<ZeroTrustAction, "BLOCK">, number>> =
  Object.freeze({ ALLOW: 15_000, CHALLENGE: 1_800_000, ESCALATE: 300_000, PENDING_ANALYSIS: 0 });

/** The longest ttl a record of this kind and action may have. */
export function zeroTrustMaxTtlMs(
  kind: ZeroTrustSubjectKind,
  action: ZeroTrustAction,
  settings: Pick<ZeroTrustSettings, "userTtlMaxMs" | "sessionTtlMaxMs" | "invalidatedSessionTtlMs">,
): number {
  if (kind === "user") return settings.userTtlMaxMs;
  return action === "BLOCK" ? settings.invalidatedSessionTtlMs : settings.sessionTtlMaxMs;
}

/**
 * The ttl a write gets:
 *
 * | subject  | action           | without ttlMs                                  | longest ttlMs            |
 * |----------|------------------|------------------------------------------------|--------------------------|
 * | user:    | BLOCK            | cache.ttl-hours (24 h): the blocked list       | cache.ttl-hours          |
 * | user:    | ALLOW/CHALLENGE/ESCALATE | 15 s / 1800 s / 300 s, at most ttl-hours | cache.ttl-hours       |
 * | session: | BLOCK            | cache.invalidated-ttl-minutes (60 min)         | invalidated-ttl-minutes  |
 * | session: | ALLOW/CHALLENGE/ESCALATE | as above, at most session-ttl-minutes (30) | session-ttl-minutes  |
 * | any      | PENDING_ANALYSIS | refused (0 s: a pending verdict is not stored) | as for the subject       |
 *
 * An explicit ttlMs must be an integer 1..longest, else VALIDATION_FAILED with `maxTtlMs`: a too-long
 * ttl is refused rather than cut, so an administrator never believes a block lasts longer than it does.
 */
export function zeroTrustTtlOf(
  kind: ZeroTrustSubjectKind,
  action: ZeroTrustAction,
  ttlMs: number | undefined,
  settings: Pick<ZeroTrustSettings, "userTtlMaxMs" | "sessionTtlMaxMs" | "invalidatedSessionTtlMs">,
): number {
  const maxTtlMs = zeroTrustMaxTtlMs(kind, action, settings);
  if (ttlMs !== undefined) {
    if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > maxTtlMs) {
      throw new PlatformError(
        "VALIDATION_FAILED",
        `The ttl of a ${kind} ${action} must be 1 ms..${maxTtlMs} ms`,
        {
          details: { fields: ["ttl"], maxTtlMs },
        },
      );
    }
    return ttlMs;
  }
  if (action === "BLOCK") return maxTtlMs;
  if (action === "PENDING_ANALYSIS") {
    throw new PlatformError(
      "VALIDATION_FAILED",
      "PENDING_ANALYSIS is not stored without a ttl (its default is 0 s); give a ttl, or clear the subject",
      { details: { fields: ["ttl"], maxTtlMs } },
    );
  }
  return Math.min(ZERO_TRUST_DEFAULT_TTL_MS[action], maxTtlMs);
}
