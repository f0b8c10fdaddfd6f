import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { type Authentication, stampOf } from "../authentication/authentication.js";
import type { AccessTokenClaims } from "./access-token-claims.js";
import { AccessTokenCodec, invalidAccessToken } from "./access-token-codec.js";
import { type BearerAuthentication, isBearerAuthentication } from "./bearer-authentication.js";
import type { JwtKeys } from "./jwt-keys.js";
import {
  hashRefreshToken,
  type RefreshTokenAuthentication,
  type RefreshTokenStore,
} from "./refresh-token-store.js";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";
import { NOT_REVOKED } from "./in-memory-revoked-token-store.js";
import { VerifiedTokenCache } from "./verified-token-cache.js";

export { MAX_ACCESS_TOKEN_LENGTH } from "./access-token-codec.js";

const MAX_REFRESH_TOKEN_LENGTH = 512;
const REFRESH_TOKEN_BYTES = 32;

/** Default of `refreshRaceWindowMs`: a spent refresh token presented within 5 s lost a race (not reuse). */
export const REFRESH_RACE_WINDOW_MS = 5_000;

/** What a sign-in or a refresh hands the client (the OAuth 2.0 token response, camel-cased). */
export interface TokenPair {
  accessToken: string;
  /** Opaque, single use: each refresh returns a new one and retires this one. */
  refreshToken: string;
  tokenType: "Bearer";
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Seconds until the refresh token expires. */
  refreshExpiresIn: number;
}

/** Which of the presented tokens `revoke` actually revoked (for logs; a client gets the same answer either way). */
export interface RevokeResult {
  refreshTokenRevoked: boolean;
  accessTokenRevoked: boolean;
}

/** Keys, claims, lifetimes and stores of a TokenService. */
export interface TokenServiceOptions {
  keys: JwtKeys;
  issuer: string;
  audience: string;
  /** Access-token lifetime; rounded down to whole seconds, at least 1 s. */
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  /** Tolerance on `exp`; rounded down to whole seconds. */
  clockSkewMs: number;
  clock: Clock;
  ids: IdGenerator;
  refreshTokens: RefreshTokenStore;
  revokedAccessTokens: RevokedAccessTokenStore;
  /**
   * How long after a rotation the same refresh token presented again counts as a concurrent refresh
   * that lost the race (401 REFRESH_TOKEN_RACE_LOST, nothing changes) rather than reuse (the family is
   * revoked). Default REFRESH_RACE_WINDOW_MS (5 s); 0 treats every second presentation as reuse.
   */
  refreshRaceWindowMs?: number;
  /**
   * Receives `auth.token.refresh-reuse` when a retired refresh token comes back, and
   * `auth.token.refresh-race` when a refresh lost a race (optional).
   */
  audit?: AuditSink;
  /**
   * Access tokens verified before, presented again without a second signature check (expiry is
   * judged on every request, revocation asked of `revokedAccessTokens` on every request). Default a
   * `VerifiedTokenCache` of VERIFIED_TOKEN_CACHE_SIZE entries; `new VerifiedTokenCache(0)` turns it off.
   */
  verifiedTokens?: VerifiedTokenCache;
}

/**
 * Stateless access tokens (JWT, one pinned algorithm) and rotating opaque refresh tokens with reuse
 * detection. Each sign-in is one refresh-token family, named in its access tokens' `sid`; revoking it
 * (logout, reuse) refuses its refresh tokens and every access token issued from it. Every failure of
 * a presented token is PlatformError `INVALID_TOKEN` with one message, the jose error as `cause`,
 * except a genuine but expired access token (`TOKEN_EXPIRED`) and a refresh that lost a race to a
 * concurrent one (`REFRESH_TOKEN_RACE_LOST`).
 */
export class TokenService {
  private readonly options: TokenServiceOptions;
  private readonly accessTtlSeconds: number;
  private readonly skewSeconds: number;
  private readonly raceWindowMs: number;
  private readonly codec: AccessTokenCodec;

  constructor(options: TokenServiceOptions) {
    for (const [name, value] of [
      ["accessTokenTtlMs", options.accessTokenTtlMs],
      ["refreshTokenTtlMs", options.refreshTokenTtlMs],
    ] as const) {
      if (!Number.isFinite(value) || value < 1000) {
        throw new PlatformError("CONFIGURATION_INVALID", `TokenService ${name} must be at least 1000 ms`);
      }
    }
    if (!Number.isFinite(options.clockSkewMs) || options.clockSkewMs < 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "TokenService clockSkewMs must be >= 0");
    }
    this.raceWindowMs = options.refreshRaceWindowMs ?? REFRESH_RACE_WINDOW_MS;
    if (!Number.isFinite(this.raceWindowMs) || this.raceWindowMs < 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "TokenService refreshRaceWindowMs must be >= 0");
    }
    this.options = options;
    this.accessTtlSeconds = Math.floor(options.accessTokenTtlMs / 1000);
    this.skewSeconds = Math.floor(options.clockSkewMs / 1000);
    this.codec = new AccessTokenCodec({
      ...options,
      ttlSeconds: this.accessTtlSeconds,
      skewSeconds: this.skewSeconds,
      verifiedTokens: options.verifiedTokens ?? new VerifiedTokenCache(),
    });
  }

  /**
   * Signs an access token and creates a refresh token in a new family for this sign-in. A bearer
   * authentication (a token sign-in that gained a factor at step-up) continues its own family instead,
   * so logout and reuse detection still cover the new pair; it is refused with `INVALID_TOKEN` when
   * its access token or family was revoked (checked before signing, and again after).
   */
  async issue(authentication: Authentication): Promise<TokenPair> {
    const snapshot = snapshotOf(authentication);
    if (!isBearerAuthentication(authentication)) {
      return (await this.issueInFamily(authentication.userId, snapshot, this.options.ids.id())).pair;
    }
    const { tokenId, familyId } = authentication;
    const denied = this.options.revokedAccessTokens;
    if (!familyId || (await denied.isRevoked(tokenId, familyId))) {
      throw invalidAccessToken(new Error("The sign-in was revoked"));
    }
    const { pair, jti } = await this.issueInFamily(authentication.userId, snapshot, familyId);
    if (await denied.isRevoked(jti, familyId)) {
      // Revoked while we signed: revoke again, so the new refresh token and access token are in it.
      await this.revokeSignIn(familyId);
      throw invalidAccessToken(new Error("The sign-in was revoked while issuing"));
    }
    return pair;
  }

  /** The Authentication an access token proves; throws `TOKEN_EXPIRED` or `INVALID_TOKEN`. */
  async authenticate(accessToken: string): Promise<BearerAuthentication> {
    const claims = await this.codec.verify(accessToken);
    // One lookup: this token, or every token of its sign-in (family), may be denied. The in-memory
    // store's shared "not revoked" is read without waiting on it; any other answer is awaited.
    const revoked = this.options.revokedAccessTokens.isRevoked(claims.jti, claims.sid);
    return revoked === NOT_REVOKED ? bearerAuthenticationOf(claims) : admittedUnlessRevoked(claims, revoked);
  }

  /**
   * `authenticate`, answering the Authentication itself when it can be told at once: a token the
   * verified-token cache holds, unexpired, that the deny list answers "not revoked" at once (the
   * in-memory store's shared answer); frozen, shared by the requests presenting the token. Otherwise
   * the promise of the same judgement, `authenticate`'s or one over the deny list's answer already
   * asked: the deny list is asked once per call, and its answer is always waited on, never dropped
   * (a database's rejection is the caller's rejection).
   */
  authenticateOrPending(accessToken: string): BearerAuthentication | Promise<BearerAuthentication> {
    try {
      const claims = this.codec.verifiedClaims(accessToken);
      if (claims === undefined) return this.authenticate(accessToken);
      const revoked = this.options.revokedAccessTokens.isRevoked(claims.jti, claims.sid);
      if (revoked !== NOT_REVOKED) return admittedUnlessRevoked(claims, revoked);
      // bearerAuthenticationOf's lookup, inline: the cache's claims are frozen, so made once and shared.
      return sharedBearerAuthentications.get(claims) ?? bearerAuthenticationOf(claims);
    } catch (error) {
      // As an async function would: a store that throws instead of rejecting answers a rejection.
      return Promise.reject(error);
    }
  }

  /**
   * Rotates a refresh token: spends it in one atomic store step and issues a new pair in the same
   * family with the original sign-in facts. Of concurrent refreshes of one token exactly one wins; a
   * loser within `refreshRaceWindowMs` of the win gets 401 `REFRESH_TOKEN_RACE_LOST` and changes
   * nothing (no tokens, the family lives on). A spent token presented later is reuse: the whole family
   * is revoked, its access tokens included. Every other refusal is `INVALID_TOKEN`.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const store = this.options.refreshTokens;
    if (!isPlausibleRefreshToken(refreshToken))
      throw invalidRefreshToken(new Error("Malformed refresh token"));
    const tokenHash = hashRefreshToken(refreshToken);
    const rotation = await store.rotate(tokenHash, this.raceWindowMs);
    if (rotation.outcome === "unknown")
      throw invalidRefreshToken(new Error("Unknown or expired refresh token"));
    const { record } = rotation;
    if (rotation.outcome === "revoked") throw invalidRefreshToken(new Error("Refresh token revoked"));
    if (rotation.outcome === "raced") {
      // A replay within the window is refused the same way: no tokens, and no revocation either.
      this.auditRefresh("auth.token.refresh-race", record);
      throw new PlatformError(
        "REFRESH_TOKEN_RACE_LOST",
        "This refresh token was just used by a concurrent request; use the tokens that request received",
      );
    }
    if (rotation.outcome === "reused") {
      await this.revokeSignIn(record.familyId);
      this.auditRefresh("auth.token.refresh-reuse", record);
      throw invalidRefreshToken(new Error("Refresh token reused; family revoked"));
    }
    const { pair, jti } = await this.issueInFamily(record.userId, record.authentication, record.familyId);
    // A revocation of the family after our rotation missed the new refresh token (the store revoked
    // the old one) or came before the new access token (the deny list): revoke again, with both in it.
    const [spent, denied] = await Promise.all([
      store.findByHash(tokenHash),
      this.options.revokedAccessTokens.isRevoked(jti, record.familyId),
    ]);
    if (spent?.status === "revoked" || denied) {
      await this.revokeSignIn(record.familyId);
      throw invalidRefreshToken(new Error("Refresh token family revoked during rotation"));
    }
    return pair;
  }

  /**
   * Logout and the revoke endpoint: ends the sign-in of each presented token. The refresh token's
   * family and the access token's family (`sid`) are revoked (refresh tokens refused, every access
   * token issued from them denied), and the access token's jti is denied until it would expire anyway
   * (exp plus clock skew). Other sign-ins of the user are untouched. Unknown, invalid or expired tokens
   * are ignored.
   */
  async revoke(tokens: { refreshToken?: string; accessToken?: string }): Promise<RevokeResult> {
    const result: RevokeResult = { refreshTokenRevoked: false, accessTokenRevoked: false };
    const families = new Set<string>();
    if (tokens.refreshToken !== undefined && isPlausibleRefreshToken(tokens.refreshToken)) {
      const record = await this.options.refreshTokens.findByHash(hashRefreshToken(tokens.refreshToken));
      if (record) {
        families.add(record.familyId);
        result.refreshTokenRevoked = true;
      }
    }
    if (tokens.accessToken !== undefined) {
      const claims = await this.verify(tokens.accessToken).catch(() => undefined);
      if (claims) {
        await this.options.revokedAccessTokens.revoke(
          claims.jti,
          claims.exp * 1000 + this.skewSeconds * 1000,
        );
        families.add(claims.sid);
        result.accessTokenRevoked = true;
      }
    }
    for (const familyId of families) await this.revokeSignIn(familyId);
    return result;
  }

  /**
   * Ends every token sign-in of a user ("sign out everywhere", an account disabled or its password
   * reset): revokes the refresh tokens and denies every access token of those families. Returns
   * how many sign-ins ended.
   */
  async revokeAllForUser(userId: string): Promise<number> {
    const until = this.options.clock.now() + (this.accessTtlSeconds + this.skewSeconds) * 1000;
    const families = await this.options.refreshTokens.revokeAllForUser(userId);
    for (const familyId of families) await this.options.revokedAccessTokens.revokeFamily(familyId, until);
    return families.length;
  }

  /**
   * The sign-in a live refresh token carries, spending nothing (the token endpoint asks the
   * `token-refresh` checkpoint about this user before `refresh`). A rotated token counts too, so no
   * retry of a spent token slips past the checkpoint; undefined for a malformed, unknown, expired or
   * revoked token (which `refresh` refuses anyway).
   */
  async refreshTokenOwner(refreshToken: string): Promise<Authentication | undefined> {
    if (!isPlausibleRefreshToken(refreshToken)) return undefined;
    const record = await this.options.refreshTokens.findByHash(hashRefreshToken(refreshToken));
    if (record === undefined || record.status === "revoked") return undefined;
    const { authentication: a } = record;
    return {
      userId: record.userId,
      username: a.username,
      authorities: [...a.authorities],
      method: a.method,
      authenticatedAt: a.authenticatedAt,
      factors: a.factors.map((f) => ({ ...f })),
      ...stampOf(a),
    };
  }

  /**
   * Ends a sign-in: denies every access token of the family (until the latest one issued so far could
   * expire, skew included) and revokes its refresh tokens. The deny list first, so no access token of
   * the family is accepted once this returns, whatever a concurrent refresh does.
   */
  private async revokeSignIn(familyId: string): Promise<void> {
    const until = this.options.clock.now() + (this.accessTtlSeconds + this.skewSeconds) * 1000;
    await this.options.revokedAccessTokens.revokeFamily(familyId, until);
    await this.options.refreshTokens.revokeFamily(familyId);
  }

  private auditRefresh(
    type: string,
    record: { familyId: string; userId: string; authentication: RefreshTokenAuthentication },
  ): void {
    this.options.audit?.record({
      type,
      at: this.options.clock.now(),
      principal: record.authentication.username,
      outcome: "denied",
      data: { familyId: record.familyId, userId: record.userId },
    });
  }

  private async issueInFamily(
    userId: string,
    authentication: RefreshTokenAuthentication,
    familyId: string,
  ): Promise<{ pair: TokenPair; jti: string }> {
    const { clock, ids, refreshTokens } = this.options;
    const now = clock.now();
    const { accessToken, jti } = await this.codec.sign(userId, authentication, familyId);
    const refreshToken = ids.secret(REFRESH_TOKEN_BYTES);
    await refreshTokens.create({
      id: ids.id(),
      tokenHash: hashRefreshToken(refreshToken),
      familyId,
      userId,
      authentication,
      expiresAt: now + this.options.refreshTokenTtlMs,
    });
    const pair: TokenPair = {
      accessToken,
      refreshToken,
      tokenType: "Bearer",
      expiresIn: this.accessTtlSeconds,
      refreshExpiresIn: Math.floor(this.options.refreshTokenTtlMs / 1000),
    };
    return { pair, jti };
  }

  private verify(accessToken: unknown): Promise<AccessTokenClaims> {
    return this.codec.verify(accessToken);
  }
}

function snapshotOf(authentication: Authentication): RefreshTokenAuthentication {
  const method = isBearerAuthentication(authentication)
    ? authentication.originalMethod
    : authentication.method;
  if (method === "bearer" || !authentication.userId) {
    throw new PlatformError("VALIDATION_FAILED", "Cannot issue tokens for this authentication");
  }
  return {
    username: authentication.username,
    authorities: [...authentication.authorities],
    method,
    authenticatedAt: authentication.authenticatedAt,
    factors: authentication.factors.map((f) => ({ ...f })),
    ...stampOf(authentication),
  };
}

function isPlausibleRefreshToken(token: unknown): token is string {
  return typeof token === "string" && token.length > 0 && token.length <= MAX_REFRESH_TOKEN_LENGTH;
}

function invalidRefreshToken(cause: unknown): PlatformError {
  return new PlatformError("INVALID_TOKEN", "Invalid refresh token", { cause });
}

/**
 * The Authentication of a token's verified claims, frozen (it, its authorities, its factors). The
 * cache's claims are frozen and shared by every request presenting the token: their Authentication is
 * made once and shared too (`sharedBearerAuthentications`, keyed by the claims, so it goes with them).
 */
function bearerAuthenticationOf(claims: AccessTokenClaims): BearerAuthentication {
  const shared = Object.isFrozen(claims) ? sharedBearerAuthentications.get(claims) : undefined;
  if (shared !== undefined) return shared;
  // The token carries factor types only; their times are approximated by auth_time.
  const factors: BearerAuthentication["factors"][number][] = [];
  for (const type of claims.amr)
    factors.push(Object.freeze({ type, at: (claims.amr_times?.[type] ?? claims.auth_time) * 1000 }));
  const authentication: BearerAuthentication = Object.freeze({
    userId: claims.sub,
    username: claims.preferred_username,
    // A copy of the claims' list, frozen as the rest.
    authorities: Object.freeze([...claims.authorities]),
    method: "bearer",
    authenticatedAt: claims.auth_time * 1000,
    factors: Object.freeze(factors),
    tokenId: claims.jti,
    familyId: claims.sid,
    originalMethod: claims.auth_method,
    expiresAt: claims.exp * 1000,
    ...(claims.sst === undefined ? {} : { securityStamp: claims.sst }),
  });
  if (Object.isFrozen(claims)) sharedBearerAuthentications.set(claims, authentication);
  return authentication;
}

/** The Authentication of verified claims once the deny list's answer says the token is not revoked. */
async function admittedUnlessRevoked(
  claims: AccessTokenClaims,
  revoked: Promise<boolean>,
): Promise<BearerAuthentication> {
  if (await revoked) throw invalidAccessToken(new Error("Access token revoked"));
  return bearerAuthenticationOf(claims);
}

/** The Authentication of each cached token's frozen claims (see bearerAuthenticationOf). */
const sharedBearerAuthentications = new WeakMap<AccessTokenClaims, BearerAuthentication>();
