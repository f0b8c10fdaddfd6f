// What a token client (the `platform` CLI, a mobile app) and an `.oauth2()` chain exchange.

/** `POST /api/token/refresh` body: the refresh token to spend. */
export type TokenRefreshBody = {
  refreshToken: string;
};

/** `POST /api/token/revoke` body: the refresh token to revoke (or none, with the access token as bearer). */
export type TokenRevokeBody = {
  refreshToken?: string;
};

/** A new token pair: the answer of a token sign-in and of `POST /api/token/refresh`. */
export type TokenPairAnswer = {
  success: true;
  accessToken: string;
  /** Opaque and single use: the next refresh spends it. */
  refreshToken: string;
  tokenType: "Bearer";
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Seconds until the refresh token expires. */
  refreshExpiresIn: number;
};

/** The answer of `POST /api/token/revoke` and of a token logout. */
export type TokenRevokedAnswer = {
  success: true;
};
