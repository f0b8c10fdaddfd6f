export {
  ACCESS_TOKEN_TYPE,
  type AccessTokenClaims,
  parseAccessTokenClaims,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
} from "./access-token-claims.js";
export { type BearerAuthentication, isBearerAuthentication } from "./bearer-authentication.js";
export {
  InMemoryRefreshTokenStore,
  type InMemoryRefreshTokenStoreOptions,
} from "./in-memory-refresh-token-store.js";
export {
  InMemoryRevokedAccessTokenStore,
  type InMemoryRevokedAccessTokenStoreOptions,
} from "./in-memory-revoked-token-store.js";
export { ConfiguredJwtKeySource } from "./configured-jwt-key-source.js";
export { JwtKeySource } from "./jwt-key-source.js";
export {
  BASE64URL_SECRET_PREFIX,
  JWT_ALGORITHMS,
  type JwtAlgorithm,
  type JwtKeys,
  type LoadJwtKeysOptions,
  loadJwtKeys,
  MIN_HS256_SECRET_BYTES,
} from "./jwt-keys.js";
export {
  JWT_ACCESS_TOKEN_TTL,
  JWT_ALGORITHM,
  JWT_AUDIENCE,
  JWT_CLOCK_SKEW,
  JWT_ISSUER,
  JWT_PRIVATE_KEY,
  JWT_PROPERTIES,
  JWT_PUBLIC_KEY,
  JWT_REFRESH_TOKEN_TTL,
  JWT_SECRET,
  type JwtPropertyOptions,
  jwtOptionsFromProperties,
} from "./jwt-properties.js";
export {
  hashRefreshToken,
  type NewRefreshTokenRecord,
  type RefreshTokenAuthentication,
  type RefreshTokenRecord,
  type RefreshTokenRotation,
  type RefreshTokenStatus,
  RefreshTokenStore,
} from "./refresh-token-store.js";
export { RevokedAccessTokenStore } from "./revoked-token-store.js";
export {
  MAX_ACCESS_TOKEN_LENGTH,
  REFRESH_RACE_WINDOW_MS,
  type RevokeResult,
  type TokenPair,
  TokenService,
  type TokenServiceOptions,
} from "./token-service.js";
