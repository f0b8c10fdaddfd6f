import type { FactorType } from "./types.js";

/**
 * A plugin factor as the server describes it in an answer's `endpoints.factors` (the 401 step-up
 * body and every MFA step answer; `GET /api/mfa/config` does not carry it): how the answer is asked
 * for (`code` or `passkey`) and where a code is posted (`POST { token }`).
 */
export interface FactorEndpoint {
  readonly kind: "code" | "passkey";
  readonly verify: string;
}

/** The plugin factors of a flow, by type (`TOTP`, `RECOVERY_CODE`). */
export type FactorEndpoints = Readonly<Record<FactorType, FactorEndpoint>>;

/** A factor type as the server names them (upper snake case); anything else is dropped. */
const TYPE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** More than this many plugin factors in one answer is not a real flow: the rest are dropped. */
const MAX_FACTORS = 16;

/**
 * The `endpoints.factors` of an answer, checked: only upper-snake types, a known kind, and a local
 * path to post to (never another origin, never `//host`), at most {@link MAX_FACTORS}. A malformed
 * entry is dropped, not trusted; a malformed value gives an empty set.
 */
export function factorEndpointsOf(endpoints: unknown): FactorEndpoints {
  const factors = isRecord(endpoints) ? endpoints.factors : undefined;
  const out: Record<FactorType, FactorEndpoint> = Object.create(null) as Record<FactorType, FactorEndpoint>;
  if (!isRecord(factors)) return out;
  for (const [type, value] of Object.entries(factors).slice(0, MAX_FACTORS)) {
    if (!TYPE.test(type) || !isRecord(value)) continue;
    const { kind, verify } = value;
    if ((kind === "code" || kind === "passkey") && typeof verify === "string" && isLocalPath(verify)) {
      out[type] = Object.freeze({ kind, verify });
    }
  }
  return out;
}

/** True for `/path` (not `//host`, not `/\host`, no control characters). */
function isLocalPath(url: string): boolean {
  return url.length <= 512 && /^\/(?![/\\])[^\s\p{Cc}\\]*$/u.test(url);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
