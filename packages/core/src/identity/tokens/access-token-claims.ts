import { z } from "zod";
import type { AuthenticationMethod } from "../authentication/authentication.js";

/** The `typ` header of access tokens (RFC 9068), required on verification so no other JWT passes as one. */
export const ACCESS_TOKEN_TYPE = "at+jwt";

const SIGN_IN_METHODS = ["form", "rest", "ott", "passkey", "mfa"] as const satisfies readonly Exclude<
  AuthenticationMethod,
  "bearer"
>[];

const numericDate = z.number().int().nonnegative();

const accessTokenClaimsSchema = z.object({
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  sub: z.string().min(1),
  jti: z.string().min(1),
  /** The sign-in (refresh-token family) the token was issued from: revoking the family refuses it. */
  sid: z.string().min(1),
  iat: numericDate,
  exp: numericDate,
  preferred_username: z.string().min(1),
  authorities: z.array(z.string()),
  auth_time: numericDate,
  amr: z.array(z.enum(["pwd", "otp", "hwk"])),
  /** When each amr factor was last proved (seconds), so step-up can judge "recent"; optional. */
  amr_times: z.partialRecord(z.enum(["pwd", "otp", "hwk"]), numericDate).optional(),
  auth_method: z.enum(SIGN_IN_METHODS),
  /** The account's security stamp at sign-in: a token stops standing when the account's moves; optional. */
  sst: z.string().min(1).max(64).optional(),
});

/** The claims of a platform access token, as signed by `TokenService.issue`. */
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/** Claims jose must find present before the shape check runs. */
export const REQUIRED_ACCESS_TOKEN_CLAIMS: readonly (keyof AccessTokenClaims)[] = [
  "iss",
  "aud",
  "sub",
  "jti",
  "sid",
  "iat",
  "exp",
  "preferred_username",
  "authorities",
  "auth_time",
  "amr",
  "auth_method",
];

/** The typed claims of a verified payload, or undefined when any claim is missing or of the wrong shape. */
export function parseAccessTokenClaims(payload: unknown): AccessTokenClaims | undefined {
  const parsed = accessTokenClaimsSchema.safeParse(payload);
  return parsed.success ? parsed.data : undefined;
}
