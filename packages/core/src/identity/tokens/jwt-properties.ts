import { z } from "zod";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import { JWT_ALGORITHMS, type JwtAlgorithm } from "./jwt-keys.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** A duration property bounded to [min, max] milliseconds. */
function boundedDuration(min: number, max: number, rule: string): z.ZodType<number> {
  return prop.duration().refine((ms) => ms >= min && ms <= max, rule);
}

/** The one JWS algorithm of this platform's access tokens. */
export const JWT_ALGORITHM = defineProperty<JwtAlgorithm>({
  key: "platform.auth.jwt.algorithm",
  schema: z.enum(JWT_ALGORITHMS, { error: `must be one of ${JWT_ALGORITHMS.join(", ")}` }),
  default: "ES256",
  description:
    "The one algorithm access tokens are signed and verified with (ES256, EdDSA or HS256); tokens with any other alg, including none, are refused.",
});

/** PKCS#8 PEM private key for ES256/EdDSA; empty means a key generated at start. */
export const JWT_PRIVATE_KEY = defineProperty<string>({
  key: "platform.auth.jwt.private-key",
  schema: z.string({ error: "must be a PEM string" }),
  default: "",
  description:
    "PKCS#8 PEM private key (ES256: P-256, EdDSA: Ed25519); `\\n` escapes are accepted. Empty: a key is generated at start and tokens do not survive a restart (a warning is logged). Secret: never log it.",
});

/** SPKI PEM public key; empty means derived from the private key. */
export const JWT_PUBLIC_KEY = defineProperty<string>({
  key: "platform.auth.jwt.public-key",
  schema: z.string({ error: "must be a PEM string" }),
  default: "",
  description:
    "SPKI PEM public key; derived from the private key when empty, start-up fails when it does not match it.",
});

/** HS256 shared secret (at least 32 bytes); empty means generated at start. */
export const JWT_SECRET = defineProperty<string>({
  key: "platform.auth.jwt.secret",
  schema: z.string({ error: "must be a string" }),
  default: "",
  description:
    "HS256 only: shared secret of at least 32 bytes, as UTF-8 text or `base64url:<data>`. Empty: generated at start (a warning is logged). Secret: never log it.",
});

/** The `iss` claim written and required. */
export const JWT_ISSUER = defineProperty<string>({
  key: "platform.auth.jwt.issuer",
  schema: prop.string(),
  default: "platform",
  description: "The iss claim of issued access tokens; tokens with another issuer are refused.",
});

/** The `aud` claim written and required. */
export const JWT_AUDIENCE = defineProperty<string>({
  key: "platform.auth.jwt.audience",
  schema: prop.string(),
  default: "platform-api",
  description: "The aud claim of issued access tokens; tokens for another audience are refused.",
});

/** Lifetime of an access token. */
export const JWT_ACCESS_TOKEN_TTL = defineProperty<number>({
  key: "platform.auth.jwt.access-token-ttl",
  schema: boundedDuration(SECOND, DAY, "must be between 1 second and 1 day"),
  default: 15 * MINUTE,
  description:
    "Lifetime of an access token (whole seconds, 1 s to 1 d). A revoked token's jti stays on the deny list this long at most.",
});

/** Lifetime of a refresh token; each rotation starts a new one. */
export const JWT_REFRESH_TOKEN_TTL = defineProperty<number>({
  key: "platform.auth.jwt.refresh-token-ttl",
  schema: boundedDuration(SECOND, 365 * DAY, "must be between 1 second and 365 days"),
  default: 7 * DAY,
  description:
    "Lifetime of a refresh token (1 s to 365 d); each refresh issues a new one with a fresh lifetime (sliding window).",
});

/** Tolerance for clock differences when checking `exp`. */
export const JWT_CLOCK_SKEW = defineProperty<number>({
  key: "platform.auth.jwt.clock-skew",
  schema: boundedDuration(0, 5 * MINUTE, "must be between 0 and 5 minutes"),
  default: 30 * SECOND,
  description: "Clock skew tolerated when checking an access token's exp (0 to 5 min, whole seconds).",
});

/** Age at which a kept (not configured) signing key is rotated; 0 never rotates. */
export const JWT_KEY_ROTATION = defineProperty<number>({
  key: "platform.auth.jwt.key-rotation",
  schema: prop
    .duration()
    .refine(
      (ms) => ms === 0 || (ms >= MINUTE && ms <= 365 * DAY),
      "must be 0 (never) or between 1 minute and 365 days",
    ),
  default: 0,
  description:
    "When no key is configured, the signing key is kept in the KeyStore; rotate it once it is this old (0: never). The old key keeps verifying until the last token it signed has expired.",
});

/** Every JWT property, for a plugin's `properties` list. */
export const JWT_PROPERTIES = [
  JWT_ALGORITHM,
  JWT_PRIVATE_KEY,
  JWT_PUBLIC_KEY,
  JWT_SECRET,
  JWT_ISSUER,
  JWT_AUDIENCE,
  JWT_ACCESS_TOKEN_TTL,
  JWT_REFRESH_TOKEN_TTL,
  JWT_CLOCK_SKEW,
  JWT_KEY_ROTATION,
] as const;

/** The JWT settings the properties select: key sources for `loadJwtKeys`, claims and lifetimes for `TokenService`. */
export interface JwtPropertyOptions {
  algorithm: JwtAlgorithm;
  /** Undefined when not configured (a key is generated). */
  privateKeyPem: string | undefined;
  publicKeyPem: string | undefined;
  secret: string | undefined;
  issuer: string;
  audience: string;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  clockSkewMs: number;
  /** Age at which a kept signing key is rotated (0: never). */
  keyRotationMs: number;
}

/**
 * Reads the JWT properties. Empty key properties become undefined; literal `\n` in a PEM (a common way
 * to put one in an environment variable) becomes a newline, which is safe because PEM has no backslash.
 */
export function jwtOptionsFromProperties(properties: PlatformProperties): JwtPropertyOptions {
  return {
    algorithm: properties.get(JWT_ALGORITHM),
    privateKeyPem: pem(properties.get(JWT_PRIVATE_KEY)),
    publicKeyPem: pem(properties.get(JWT_PUBLIC_KEY)),
    secret: properties.get(JWT_SECRET) === "" ? undefined : properties.get(JWT_SECRET),
    issuer: properties.get(JWT_ISSUER),
    audience: properties.get(JWT_AUDIENCE),
    accessTokenTtlMs: properties.get(JWT_ACCESS_TOKEN_TTL),
    refreshTokenTtlMs: properties.get(JWT_REFRESH_TOKEN_TTL),
    clockSkewMs: properties.get(JWT_CLOCK_SKEW),
    keyRotationMs: properties.get(JWT_KEY_ROTATION),
  };
}

function pem(value: string): string | undefined {
  const text = value.replace(/\\n/g, "\n").trim();
  return text === "" ? undefined : text;
}
