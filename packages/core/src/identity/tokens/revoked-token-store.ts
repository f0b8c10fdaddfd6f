import type { InjectionToken } from "tsyringe";

/**
 * The deny list of access tokens revoked before their expiry: single tokens by `jti`, and whole
 * sign-ins by family id (the `sid` claim: every access token issued from one refresh-token family).
 * An entry only needs to live until the tokens it denies could no longer be accepted anyway (their
 * `exp` plus the clock skew), so the list stays bounded by the live tokens. Expiry is checked on read
 * with the Clock. Token ids and family ids are separate namespaces: equal strings never collide.
 */
export interface RevokedAccessTokenStore {
  /**
   * Denies `jti` until `expiresAt` (epoch ms). Revoking again keeps the later of the two times; an
   * `expiresAt` that is not in the future changes nothing.
   */
  revoke(jti: string, expiresAt: number): Promise<void>;
  /**
   * Denies every token of the family until `expiresAt` (epoch ms: the latest expiry, skew included,
   * of any access token issued from it). Same rules as `revoke`: the later time is kept, a past one
   * changes nothing.
   */
  revokeFamily(familyId: string, expiresAt: number): Promise<void>;
  /**
   * True while `jti` is denied, or the family `familyId` (when given) is: the bearer check, one
   * lookup per request (a database adapter answers it with one query over both keys, e.g.
   * `find({ _id: { $in: ["jti:…", "sid:…"] }, expiresAt: { $gt: now } }).limit(1)`).
   */
  isRevoked(jti: string, familyId?: string): Promise<boolean>;
}

/** DI token of the RevokedAccessTokenStore port. */
export const RevokedAccessTokenStore: InjectionToken<RevokedAccessTokenStore> = Symbol.for(
  "platform.RevokedAccessTokenStore",
);
