import { createHmac, randomBytes, webcrypto } from "node:crypto";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  importSPKI,
  type JWK,
} from "jose";
import { BASE64URL_SECRET_PREFIX, secretBytesOf } from "../../kernel/keys/secret-text.js";
import type { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The signing algorithms a platform may pin (exactly one per platform). */
export const JWT_ALGORITHMS = ["ES256", "EdDSA", "HS256"] as const;

/** One of the pinnable JWS algorithms: ES256 (P-256), EdDSA (Ed25519) or HS256 (shared secret). */
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** Smallest HS256 secret accepted, in bytes (RFC 7518 §3.2: a key at least as long as the hash). */
export const MIN_HS256_SECRET_BYTES = 32;

/** Prefix that marks an HS256 secret as base64url-encoded bytes rather than UTF-8 text. */
export { BASE64URL_SECRET_PREFIX };

/** The key material of one platform's access tokens, with the pinned algorithm and key id. */
export interface JwtKeys {
  /** The one algorithm tokens are signed and verified with; every other `alg` is refused. */
  readonly algorithm: JwtAlgorithm;
  /** Key id put in every token header: the RFC 7638 thumbprint (asymmetric) or a MAC of the secret (HS256). */
  readonly kid: string;
  /** Signs access tokens (private key, or the HMAC key). Never extractable. */
  readonly signingKey: CryptoKey;
  /** Verifies access tokens (public key, or the HMAC key). */
  readonly verificationKey: CryptoKey;
  /** True when no key was configured and this one was generated at start (lost on restart). */
  readonly generated: boolean;
  /** The public key as a JWK with `kid`, `alg` and `use: "sig"`, for a JWKS route; undefined for HS256. */
  publicJwk(): JWK | undefined;
  /**
   * Every public key that may still verify an unexpired token (the active one and those a rotation
   * retired), as JWKs with `kid`, `alg` and `use: "sig"`, for the JWKS route. Absent: `publicJwk()`
   * alone. Empty for HS256.
   */
  publicJwks?(): Promise<JWK[]>;
  /**
   * Another key this platform still accepts, by kid: a key a rotation retired, or a newer one another
   * instance made. Absent: tokens naming any kid but `kid` are refused.
   */
  verificationKeyFor?(kid: string): Promise<CryptoKey | undefined>;
  /** Runs before each signature, so a rotating key set can reload or rotate (`kid` and `signingKey` may change). */
  beforeSign?(): Promise<void>;
}

/** Key material of one JWT key as a KeyStore keeps it: the private JWK (or the HS256 secret) as bytes. */
export interface JwtKeyMaterial {
  readonly kid: string;
  readonly algorithm: JwtAlgorithm;
  /** UTF-8 JSON of the private JWK (ES256, EdDSA), or the HS256 secret. */
  readonly secret: Uint8Array;
  /** The public JWK without `kid`/`alg`/`use` (asymmetric only). */
  readonly publicJwk?: JWK | undefined;
}

/** A new key of `algorithm` as material to store (the private part exported once, for sealing). */
export async function generateJwtKeyMaterial(algorithm: JwtAlgorithm): Promise<JwtKeyMaterial> {
  if (algorithm === "HS256") {
    const secret = new Uint8Array(randomBytes(MIN_HS256_SECRET_BYTES));
    return { kid: (await secretKeys(secret, true)).kid, algorithm, secret };
  }
  const pair = await generateKeyPair(algorithm, { extractable: true });
  const publicJwk = publicPart(await exportJWK(pair.publicKey));
  const secret = new TextEncoder().encode(JSON.stringify(await exportJWK(pair.privateKey)));
  return { kid: await calculateJwkThumbprint(publicJwk, "sha256"), algorithm, secret, publicJwk };
}

/** The JwtKeys of stored material; `generated` says whether the keys die with the process. */
export async function jwtKeysFromMaterial(material: JwtKeyMaterial, generated: boolean): Promise<JwtKeys> {
  if (material.algorithm === "HS256") return secretKeys(material.secret, generated);
  const privateJwk = JSON.parse(new TextDecoder().decode(material.secret)) as JWK;
  const signingKey = (await importJWK(privateJwk, material.algorithm, { extractable: false })) as CryptoKey;
  // The verification key comes from the sealed private key, never from the stored public JWK (which
  // is not sealed): a store writer who swapped it would otherwise choose which signatures verify.
  const publicJwk = publicPart(privateJwk);
  if (material.publicJwk && JSON.stringify(publicPart(material.publicJwk)) !== JSON.stringify(publicJwk)) {
    throw configError(`Stored JWT key ${material.kid}: its public key does not belong to its private key`);
  }
  return asymmetricKeys(material.algorithm, signingKey, publicJwk, generated);
}

/** Where the keys come from; every key field empty or absent means "generate one at start". */
export interface LoadJwtKeysOptions {
  /** The pinned algorithm (default ES256). */
  algorithm?: JwtAlgorithm;
  /** PKCS#8 PEM private key (ES256: P-256, EdDSA: Ed25519). */
  privateKeyPem?: string;
  /** SPKI PEM public key; derived from the private key when absent, checked against it when present. */
  publicKeyPem?: string;
  /**
   * HS256 shared secret, at least 32 bytes: `base64url:<data>` is decoded as base64url, any other
   * string is taken as its UTF-8 bytes.
   */
  secret?: string;
  /** Receives the warning when a key is generated (never any key material). */
  logger: Logger;
}

/**
 * Loads (or, when none is configured, generates) the access-token keys. Throws PlatformError
 * `CONFIGURATION_INVALID` on an unknown algorithm, a key of the wrong type, a public key that does not
 * match the private one, a public key without a private one, key material of the other family (a
 * secret with ES256/EdDSA, a PEM with HS256), or an HS256 secret shorter than 32 bytes.
 */
export async function loadJwtKeys(options: LoadJwtKeysOptions): Promise<JwtKeys> {
  const algorithm = options.algorithm ?? "ES256";
  if (!(JWT_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw configError(
      `Unsupported JWT algorithm ${String(algorithm)}; use one of ${JWT_ALGORITHMS.join(", ")}`,
    );
  }
  const privateKeyPem = nonEmpty(options.privateKeyPem);
  const publicKeyPem = nonEmpty(options.publicKeyPem);
  const secret = nonEmpty(options.secret);
  if (algorithm === "HS256") {
    if (privateKeyPem || publicKeyPem) {
      throw configError("HS256 takes platform.auth.jwt.secret, not a private or public key");
    }
    return secret === undefined ? generatedSecret(options.logger) : secretKeys(decodeSecret(secret), false);
  }
  if (secret !== undefined) {
    throw configError(`${algorithm} takes platform.auth.jwt.private-key, not a secret`);
  }
  if (privateKeyPem === undefined) {
    if (publicKeyPem !== undefined) {
      throw configError("platform.auth.jwt.public-key is set without platform.auth.jwt.private-key");
    }
    return generatedKeyPair(algorithm, options.logger);
  }
  return pemKeys(algorithm, privateKeyPem, publicKeyPem);
}

async function pemKeys(
  algorithm: "ES256" | "EdDSA",
  privateKeyPem: string,
  publicKeyPem: string | undefined,
): Promise<JwtKeys> {
  let signingKey: CryptoKey;
  let publicJwk: JWK;
  try {
    const exportable = await importPKCS8(privateKeyPem, algorithm, { extractable: true });
    publicJwk = publicPart(await exportJWK(exportable));
    signingKey = await importPKCS8(privateKeyPem, algorithm, { extractable: false });
  } catch (cause) {
    throw configError(
      `platform.auth.jwt.private-key is not a PKCS#8 PEM ${keyKind(algorithm)} private key`,
      cause,
    );
  }
  if (publicKeyPem !== undefined) {
    let configured: JWK;
    try {
      configured = publicPart(
        await exportJWK(await importSPKI(publicKeyPem, algorithm, { extractable: true })),
      );
    } catch (cause) {
      throw configError(
        `platform.auth.jwt.public-key is not an SPKI PEM ${keyKind(algorithm)} public key`,
        cause,
      );
    }
    if (JSON.stringify(configured) !== JSON.stringify(publicJwk)) {
      throw configError("platform.auth.jwt.public-key does not belong to platform.auth.jwt.private-key");
    }
  }
  return asymmetricKeys(algorithm, signingKey, publicJwk, false);
}

async function generatedKeyPair(algorithm: "ES256" | "EdDSA", logger: Logger): Promise<JwtKeys> {
  const pair = await generateKeyPair(algorithm, { extractable: false });
  const keys = await asymmetricKeys(
    algorithm,
    pair.privateKey,
    publicPart(await exportJWK(pair.publicKey)),
    true,
  );
  warnGenerated(logger, keys, "platform.auth.jwt.private-key");
  return keys;
}

async function asymmetricKeys(
  algorithm: "ES256" | "EdDSA",
  signingKey: CryptoKey,
  publicJwk: JWK,
  generated: boolean,
): Promise<JwtKeys> {
  const kid = await calculateJwkThumbprint(publicJwk, "sha256");
  const verificationKey = (await importJWK(publicJwk, algorithm)) as CryptoKey;
  const published: JWK = { ...publicJwk, kid, alg: algorithm, use: "sig" };
  return {
    algorithm,
    kid,
    signingKey,
    verificationKey,
    generated,
    publicJwk: () => ({ ...published }),
  };
}

async function generatedSecret(logger: Logger): Promise<JwtKeys> {
  const keys = await secretKeys(new Uint8Array(randomBytes(MIN_HS256_SECRET_BYTES)), true);
  warnGenerated(logger, keys, "platform.auth.jwt.secret");
  return keys;
}

async function secretKeys(secret: Uint8Array, generated: boolean): Promise<JwtKeys> {
  const key = (await webcrypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ])) as CryptoKey;
  // A MAC of a fixed label, not a hash of the secret: every instance sharing the secret agrees on the
  // kid, and publishing it reveals nothing usable (no JWS signing input equals the label).
  const kid = createHmac("sha256", secret)
    .update("platform.jwt.kid")
    .digest()
    .subarray(0, 16)
    .toString("base64url");
  return {
    algorithm: "HS256",
    kid,
    signingKey: key,
    verificationKey: key,
    generated,
    publicJwk: () => undefined,
  };
}

function decodeSecret(secret: string): Uint8Array {
  return secretBytesOf(secret, "platform.auth.jwt.secret", MIN_HS256_SECRET_BYTES);
}

/** Only the public members of a key's JWK, in a fixed order (so two exports compare equal). */
function publicPart(jwk: JWK): JWK {
  if (jwk.kty === "EC") return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  if (jwk.kty === "OKP") return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
  throw configError(`Unexpected key type ${String(jwk.kty)}`);
}

/** The warning for keys that die with the process (generated at start, or kept in a process-local store). */
export function warnGenerated(
  logger: Logger,
  keys: Pick<JwtKeys, "algorithm" | "kid">,
  property: string,
): void {
  logger.warn(
    `No JWT signing key configured: generated a ${keys.algorithm} key at start. Access and refresh ` +
      `tokens will not survive a restart nor work across instances; set ${property} to keep them.`,
    { algorithm: keys.algorithm, kid: keys.kid },
  );
}

function keyKind(algorithm: "ES256" | "EdDSA"): string {
  return algorithm === "ES256" ? "P-256 (EC)" : "Ed25519";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function configError(message: string, cause?: unknown): PlatformError {
  return new PlatformError("CONFIGURATION_INVALID", message, cause === undefined ? {} : { cause });
}
