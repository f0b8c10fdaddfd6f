import type { Authentication, AuthenticationMethod } from "../authentication/authentication.js";

/**
 * The Authentication of a request carrying a valid access token: `method` is `bearer`, and the token's
 * facts stay available (which token, how the user originally signed in, until when it is valid).
 */
export interface BearerAuthentication extends Authentication {
  readonly method: "bearer";
  /** The token's `jti`: what `revoke` puts on the deny list. */
  readonly tokenId: string;
  /** The token's `sid`: the sign-in (refresh-token family) it was issued from. */
  readonly familyId: string;
  /** The method of the sign-in that issued the token (`auth_method` claim). */
  readonly originalMethod: Exclude<AuthenticationMethod, "bearer">;
  /** The token's `exp`, in epoch ms. */
  readonly expiresAt: number;
}

/** True when `authentication` came from an access token. */
export function isBearerAuthentication(
  authentication: Authentication,
): authentication is BearerAuthentication {
  const candidate = authentication as Partial<BearerAuthentication>;
  return (
    authentication.method === "bearer" &&
    typeof candidate.tokenId === "string" &&
    typeof candidate.originalMethod === "string"
  );
}
