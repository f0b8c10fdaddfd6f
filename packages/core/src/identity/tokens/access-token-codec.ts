import { type JWTVerifyGetKey, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { AuthenticationFactor } from "../authentication/authentication.js";
import {
  ACCESS_TOKEN_TYPE,
  type AccessTokenClaims,
  parseAccessTokenClaims,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
} from "./access-token-claims.js";
import type { JwtKeys } from "./jwt-keys.js";
import type { RefreshTokenAuthentication } from "./refresh-token-store.js";
import type { VerifiedTokenCache } from "./verified-token-cache.js";

/** Longest string even looked at as an access token: anything longer is refused before parsing. */
export const MAX_ACCESS_TOKEN_LENGTH = 8192;

/** Keys, claims and times of an AccessTokenCodec. */
export interface AccessTokenCodecOptions {
  keys: JwtKeys;
  issuer: string;
  audience: string;
  /** Lifetime in whole seconds. */
  ttlSeconds: number;
  /** Tolerance on `exp`, in whole seconds. */
  skewSeconds: number;
  clock: Clock;
  ids: IdGenerator;
  /** Tokens verified before, whose signature check is skipped (time is still judged every time). */
  verifiedTokens?: VerifiedTokenCache;
}

/**
 * Signs and verifies access tokens (JWT, one pinned algorithm, `typ: at+jwt`). Verification refuses
 * every bad token with PlatformError `INVALID_TOKEN` and one message (the jose error as `cause`),
 * except a genuine but expired one (`TOKEN_EXPIRED`). Revocation is the TokenService's business.
 */
export class AccessTokenCodec {
  private readonly resolveKey: JWTVerifyGetKey;

  constructor(private readonly o: AccessTokenCodecOptions) {
    const keys = o.keys;
    // Refuses a token naming a key this platform does not hold before any signature work.
    this.resolveKey = async (header) => {
      if (typeof header.kid !== "string") throw new Error("Unknown kid");
      if (header.kid === keys.kid) return keys.verificationKey;
      const other = await keys.verificationKeyFor?.(header.kid);
      if (!other) throw new Error("Unknown kid");
      return other;
    };
  }

  /** Signs a token for this sign-in (`sid` = its refresh-token family) with a fresh `jti`. */
  async sign(
    userId: string,
    authentication: RefreshTokenAuthentication,
    familyId: string,
  ): Promise<{ accessToken: string; jti: string }> {
    const { keys, ids } = this.o;
    await keys.beforeSign?.();
    const iat = Math.floor(this.o.clock.now() / 1000);
    const jti = ids.id();
    const accessToken = await new SignJWT({
      preferred_username: authentication.username,
      authorities: [...authentication.authorities],
      auth_time: Math.floor(authentication.authenticatedAt / 1000),
      amr: [...new Set(authentication.factors.map((f) => f.type))],
      amr_times: latestFactorTimes(authentication.factors),
      auth_method: authentication.method,
      sid: familyId,
      ...(authentication.securityStamp === undefined ? {} : { sst: authentication.securityStamp }),
    })
      .setProtectedHeader({ alg: keys.algorithm, kid: keys.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.o.issuer)
      .setAudience(this.o.audience)
      .setSubject(userId)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.o.ttlSeconds)
      .sign(keys.signingKey);
    return { accessToken, jti };
  }

  /**
   * The claims of a token verified before and not expired since, read from the verified-token cache
   * without waiting (shared and frozen); undefined when it is not held or has expired (`verify` then
   * tells which, and why).
   */
  verifiedClaims(accessToken: string): AccessTokenClaims | undefined {
    const cache = this.o.verifiedTokens;
    if (cache === undefined) return undefined;
    const claims = cache.get(accessToken, Math.floor(this.o.clock.now() / 1000), this.o.skewSeconds);
    return claims === "expired" ? undefined : claims;
  }

  /** The claims of a genuine, unexpired token; throws `TOKEN_EXPIRED` or `INVALID_TOKEN`. */
  async verify(accessToken: unknown): Promise<AccessTokenClaims> {
    if (
      typeof accessToken !== "string" ||
      accessToken.length === 0 ||
      accessToken.length > MAX_ACCESS_TOKEN_LENGTH
    ) {
      throw invalidAccessToken(new Error("Malformed access token"));
    }
    const now = this.o.clock.now();
    const cache = this.o.verifiedTokens;
    const cached = cache?.get(accessToken, Math.floor(now / 1000), this.o.skewSeconds);
    if (cached === "expired") {
      const cause = new Error('"exp" claim timestamp check failed (verified earlier)');
      throw new PlatformError("TOKEN_EXPIRED", "Access token expired", { cause });
    }
    if (cached) return cached;
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(accessToken, this.resolveKey, {
        algorithms: [this.o.keys.algorithm],
        issuer: this.o.issuer,
        audience: this.o.audience,
        typ: ACCESS_TOKEN_TYPE,
        clockTolerance: this.o.skewSeconds,
        currentDate: new Date(now),
        requiredClaims: [...REQUIRED_ACCESS_TOKEN_CLAIMS],
      }));
    } catch (error) {
      // jose checks the signature and every other claim before exp, so this is a genuine token.
      if (joseCode(error) === "ERR_JWT_EXPIRED") {
        throw new PlatformError("TOKEN_EXPIRED", "Access token expired", { cause: error });
      }
      throw invalidAccessToken(error);
    }
    const claims = parseAccessTokenClaims(payload);
    if (!claims) throw invalidAccessToken(new Error("Access token claims have the wrong shape"));
    // A token with a not-before time is judged by the verifier every time (we never issue one).
    if ((payload as { nbf?: unknown }).nbf === undefined) cache?.set(accessToken, claims);
    return claims;
  }
}

/** The one refusal of a bad access token: `INVALID_TOKEN`, "Invalid access token", the reason as `cause`. */
export function invalidAccessToken(cause: unknown): PlatformError {
  return new PlatformError("INVALID_TOKEN", "Invalid access token", { cause });
}

function joseCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** The latest time (seconds) each factor type was proved, for the `amr_times` claim. */
function latestFactorTimes(
  factors: readonly AuthenticationFactor[],
): Partial<Record<"pwd" | "otp" | "hwk", number>> {
  const out: Partial<Record<"pwd" | "otp" | "hwk", number>> = {};
  for (const f of factors) out[f.type] = Math.max(out[f.type] ?? 0, Math.floor(f.at / 1000));
  return out;
}
