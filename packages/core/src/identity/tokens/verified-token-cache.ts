import type { AccessTokenClaims } from "./access-token-claims.js";

/** Default bound of a VerifiedTokenCache: entries (about 1.2 kB each, token and claims). */
export const VERIFIED_TOKEN_CACHE_SIZE = 5_000;

/**
 * Access tokens whose signature and claims were verified, with their claims, so that a token
 * presented again skips the signature check. Only what never changes is cached: the signature and
 * the claims. Time is judged on every lookup with the verifier's own rule (expired once
 * `exp <= now - skew`, whole seconds), so an expired token is never served; revocation is not this
 * cache's business (the TokenService asks the deny list on every request, hit or miss). Bounded in
 * entries: when full, the entry stored longest ago goes first.
 */
export class VerifiedTokenCache {
  /**
   * By the token's signature (the text after its last `.`), each entry holding the whole token: a
   * lookup hashes the signature's 86 characters, not the token's 600 or so, and a hit is the whole
   * token, compared in full (a token that only shares a signature is not held).
   */
  private readonly entries = new Map<
    string,
    { readonly token: string; readonly claims: AccessTokenClaims }
  >();

  /** `maxEntries` 0 caches nothing. */
  constructor(readonly maxEntries: number = VERIFIED_TOKEN_CACHE_SIZE) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) {
      throw new RangeError("VerifiedTokenCache maxEntries must be a whole number >= 0");
    }
  }

  /** How many tokens are held now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The claims of a verified token, `"expired"` when it was verified but its `exp` has passed by
   * `nowSeconds` (the entry is dropped), or undefined when it is not held.
   */
  get(token: string, nowSeconds: number, skewSeconds: number): AccessTokenClaims | "expired" | undefined {
    // signatureOf, inline (every bearer request).
    const key = token.slice(token.lastIndexOf(".") + 1);
    const entry = this.entries.get(key);
    if (entry === undefined || entry.token !== token) return undefined;
    const claims = entry.claims;
    if (claims.exp <= nowSeconds - skewSeconds) {
      this.entries.delete(key);
      return "expired";
    }
    return claims;
  }

  /** Holds a token the verifier accepted (its claims frozen: every hit shares them). */
  set(token: string, claims: AccessTokenClaims): void {
    if (this.maxEntries === 0) return;
    const key = signatureOf(token);
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { token, claims: deepFreeze(claims) });
  }
}

/** A compact JWS's signature: the text after its last `.` (the whole text when it has none). */
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf(".") + 1);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
