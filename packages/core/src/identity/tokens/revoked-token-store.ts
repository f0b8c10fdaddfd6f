import type { InjectionToken } from "tsyringe";

/**
 * The deny list of access-token ids (`jti`) revoked before their expiry. An entry only needs to live
 * until the token could no longer be accepted anyway (its `exp` plus the clock skew), so the list stays
 * bounded by the live tokens. Expiry is checked on read with the Clock.
 */
export interface RevokedAccessTokenStore {
  /**
   * Denies `jti` until `expiresAt` (epoch ms). Revoking again keeps the later of the two times; an
   * `expiresAt` that is not in the future changes nothing.
   */
  revoke(jti: string, expiresAt: number): Promise<void>;
  /** True while `jti` is denied (revoked and its `expiresAt` still in the future). */
  isRevoked(jti: string): Promise<boolean>;
}

/** DI token of the RevokedAccessTokenStore port. */
export const RevokedAccessTokenStore: InjectionToken<RevokedAccessTokenStore> = Symbol.for(
  "platform.RevokedAccessTokenStore",
);
