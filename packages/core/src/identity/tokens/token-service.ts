import { type JWTVerifyGetKey, jwtVerify, SignJWT } from "jose";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { Authentication } from "../authentication/authentication.js";
import {
  ACCESS_TOKEN_TYPE,
  type AccessTokenClaims,
  parseAccessTokenClaims,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
} from "./access-token-claims.js";
import { type BearerAuthentication, isBearerAuthentication } from "./bearer-authentication.js";
import type { JwtKeys } from "./jwt-keys.js";
import {
  hashRefreshToken,
  type RefreshTokenAuthentication,
  type RefreshTokenStore,
} from "./refresh-token-store.js";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";

/** Longest string even looked at as an access token: anything longer is refused before parsing. */
export const MAX_ACCESS_TOKEN_LENGTH = 8192;
const MAX_REFRESH_TOKEN_LENGTH = 512;
const REFRESH_TOKEN_BYTES = 32;

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
  /** Receives `auth.token.refresh-reuse` when a retired refresh token comes back (optional). */
  audit?: AuditSink;
}

/**
 * Stateless access tokens (JWT, one pinned algorithm) and rotating opaque refresh tokens with reuse
 * detection. Every failure of a presented token is PlatformError `INVALID_TOKEN` with one message, the
 * jose error as `cause`, except a genuine but expired access token (`TOKEN_EXPIRED`).
 */
export class TokenService {
  private readonly options: TokenServiceOptions;
  private readonly accessTtlSeconds: number;
  private readonly skewSeconds: number;
  private readonly resolveKey: JWTVerifyGetKey;

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
    this.options = options;
    this.accessTtlSeconds = Math.floor(options.accessTokenTtlMs / 1000);
    this.skewSeconds = Math.floor(options.clockSkewMs / 1000);
    const { kid, verificationKey } = options.keys;
    // Refuses a token naming another key before any signature work.
    this.resolveKey = (header) => {
      if (header.kid !== kid) throw new Error("Unknown kid");
      return verificationKey;
    };
  }

  /** Signs an access token and creates a refresh token in a new family for this sign-in. */
  async issue(authentication: Authentication): Promise<TokenPair> {
    return this.issueInFamily(authentication.userId, snapshotOf(authentication), this.options.ids.id());
  }

  /** The Authentication an access token proves; throws `TOKEN_EXPIRED` or `INVALID_TOKEN`. */
  async authenticate(accessToken: string): Promise<BearerAuthentication> {
    const claims = await this.verify(accessToken);
    if (await this.options.revokedAccessTokens.isRevoked(claims.jti)) {
      throw invalidToken(new Error("Access token revoked"));
    }
    const authenticatedAt = claims.auth_time * 1000;
    return {
      userId: claims.sub,
      username: claims.preferred_username,
      authorities: claims.authorities,
      method: "bearer",
      authenticatedAt,
      // The token carries factor types only; their times are approximated by auth_time.
      factors: claims.amr.map((type) => ({
        type,
        at: (claims.amr_times?.[type] ?? claims.auth_time) * 1000,
      })),
      tokenId: claims.jti,
      originalMethod: claims.auth_method,
      expiresAt: claims.exp * 1000,
    };
  }

  /**
   * Rotates a refresh token: retires it and issues a new pair in the same family with the original
   * sign-in facts. A retired token coming back (reuse) revokes its whole family. Throws `INVALID_TOKEN`.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const store = this.options.refreshTokens;
    if (!isPlausibleRefreshToken(refreshToken))
      throw invalidRefreshToken(new Error("Malformed refresh token"));
    const tokenHash = hashRefreshToken(refreshToken);
    const record = await store.findByHash(tokenHash);
    if (!record) throw invalidRefreshToken(new Error("Unknown or expired refresh token"));
    if (record.status === "revoked") throw invalidRefreshToken(new Error("Refresh token revoked"));
    if (record.status === "rotated") {
      await store.revokeFamily(record.familyId);
      this.options.audit?.record({
        type: "auth.token.refresh-reuse",
        at: this.options.clock.now(),
        principal: record.authentication.username,
        outcome: "denied",
        data: { familyId: record.familyId, userId: record.userId },
      });
      throw invalidRefreshToken(new Error("Refresh token reused; family revoked"));
    }
    if (!(await store.compareAndSetStatus(record.id, record.version, "rotated"))) {
      throw invalidRefreshToken(new Error("Refresh token was rotated concurrently"));
    }
    const pair = await this.issueInFamily(record.userId, record.authentication, record.familyId);
    // A revocation of the family between our CAS and the new record's creation missed the new record:
    // it revoked the old one, so seeing that means revoking again (this time with the new one in it).
    if ((await store.findByHash(tokenHash))?.status === "revoked") {
      await store.revokeFamily(record.familyId);
      throw invalidRefreshToken(new Error("Refresh token family revoked during rotation"));
    }
    return pair;
  }

  /**
   * Revokes the refresh token's whole family and puts the access token's jti on the deny list until it
   * would expire anyway (exp plus clock skew). Unknown, invalid or expired tokens are ignored.
   */
  async revoke(tokens: { refreshToken?: string; accessToken?: string }): Promise<RevokeResult> {
    const result: RevokeResult = { refreshTokenRevoked: false, accessTokenRevoked: false };
    if (tokens.refreshToken !== undefined && isPlausibleRefreshToken(tokens.refreshToken)) {
      const record = await this.options.refreshTokens.findByHash(hashRefreshToken(tokens.refreshToken));
      if (record) {
        await this.options.refreshTokens.revokeFamily(record.familyId);
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
        result.accessTokenRevoked = true;
      }
    }
    return result;
  }

  /** Revokes every refresh token of a user ("sign out everywhere"); returns how many. Live access tokens run out. */
  async revokeAllForUser(userId: string): Promise<number> {
    return this.options.refreshTokens.revokeAllForUser(userId);
  }

  private async issueInFamily(
    userId: string,
    authentication: RefreshTokenAuthentication,
    familyId: string,
  ): Promise<TokenPair> {
    const { keys, clock, ids, refreshTokens } = this.options;
    const now = clock.now();
    const iat = Math.floor(now / 1000);
    const accessToken = await new SignJWT({
      preferred_username: authentication.username,
      authorities: [...authentication.authorities],
      auth_time: Math.floor(authentication.authenticatedAt / 1000),
      amr: [...new Set(authentication.factors.map((f) => f.type))],
      amr_times: latestFactorTimes(authentication.factors),
      auth_method: authentication.method,
    })
      .setProtectedHeader({ alg: keys.algorithm, kid: keys.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(userId)
      .setJti(ids.id())
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.accessTtlSeconds)
      .sign(keys.signingKey);
    const refreshToken = ids.secret(REFRESH_TOKEN_BYTES);
    await refreshTokens.create({
      id: ids.id(),
      tokenHash: hashRefreshToken(refreshToken),
      familyId,
      userId,
      authentication,
      expiresAt: now + this.options.refreshTokenTtlMs,
    });
    return {
      accessToken,
      refreshToken,
      tokenType: "Bearer",
      expiresIn: this.accessTtlSeconds,
      refreshExpiresIn: Math.floor(this.options.refreshTokenTtlMs / 1000),
    };
  }

  private async verify(accessToken: unknown): Promise<AccessTokenClaims> {
    if (
      typeof accessToken !== "string" ||
      accessToken.length === 0 ||
      accessToken.length > MAX_ACCESS_TOKEN_LENGTH
    ) {
      throw invalidToken(new Error("Malformed access token"));
    }
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(accessToken, this.resolveKey, {
        algorithms: [this.options.keys.algorithm],
        issuer: this.options.issuer,
        audience: this.options.audience,
        typ: ACCESS_TOKEN_TYPE,
        clockTolerance: this.skewSeconds,
        currentDate: new Date(this.options.clock.now()),
        requiredClaims: [...REQUIRED_ACCESS_TOKEN_CLAIMS],
      }));
    } catch (error) {
      // jose checks the signature and every other claim before exp, so this is a genuine token.
      if (joseCode(error) === "ERR_JWT_EXPIRED") {
        throw new PlatformError("TOKEN_EXPIRED", "Access token expired", { cause: error });
      }
      throw invalidToken(error);
    }
    const claims = parseAccessTokenClaims(payload);
    if (!claims) throw invalidToken(new Error("Access token claims have the wrong shape"));
    return claims;
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
  };
}

function isPlausibleRefreshToken(token: unknown): token is string {
  return typeof token === "string" && token.length > 0 && token.length <= MAX_REFRESH_TOKEN_LENGTH;
}

function joseCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

function invalidToken(cause: unknown): PlatformError {
  return new PlatformError("INVALID_TOKEN", "Invalid access token", { cause });
}

function invalidRefreshToken(cause: unknown): PlatformError {
  return new PlatformError("INVALID_TOKEN", "Invalid refresh token", { cause });
}

/** The latest time (seconds) each factor type was proved, for the `amr_times` claim. */
function latestFactorTimes(
  factors: Authentication["factors"],
): Partial<Record<"pwd" | "otp" | "hwk", number>> {
  const out: Partial<Record<"pwd" | "otp" | "hwk", number>> = {};
  for (const f of factors) out[f.type] = Math.max(out[f.type] ?? 0, Math.floor(f.at / 1000));
  return out;
}
