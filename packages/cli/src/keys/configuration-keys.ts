import { generateKeyPairSync, randomBytes } from "node:crypto";
import { envNameOf } from "@keyward/core";
import { KEK_KEY } from "./key-encryption-key-option.js";

/** What `platform keys generate` makes: a key-encryption key, a JWT signing key, a device-cookie secret. */
export const GENERATED_KEY_KINDS = ["key-encryption-key", "jwt", "device-cookie"] as const;

/** One of GENERATED_KEY_KINDS. */
export type GeneratedKeyKind = (typeof GENERATED_KEY_KINDS)[number];

/** The JWT algorithms a signing key can be made for (the platform's pinnable ones). */
export const GENERATED_JWT_ALGORITHMS = ["ES256", "EdDSA", "HS256"] as const;

/** A new key in the form its property takes, with the property and its environment variable. */
export interface ConfigurationKey {
  property: string;
  env: string;
  value: string;
}

/** Random secrets are 32 bytes, the least every secret property accepts. */
const SECRET_BYTES = 32;

/**
 * A new key for a configuration: a key-encryption key or a device-cookie secret (32 random bytes as
 * `base64url:<data>`), a JWT signing key (ES256: a P-256, EdDSA: an Ed25519 PKCS#8 PEM private key for
 * `platform.auth.jwt.private-key`; HS256: a 32-byte secret for `platform.auth.jwt.secret`).
 */
export function generateConfigurationKey(
  kind: GeneratedKeyKind,
  algorithm: (typeof GENERATED_JWT_ALGORITHMS)[number] = "ES256",
): ConfigurationKey {
  if (kind === "key-encryption-key") return keyOf(KEK_KEY, secret());
  if (kind === "device-cookie") return keyOf("platform.auth.device-cookie.secret", secret());
  if (algorithm === "HS256") return keyOf("platform.auth.jwt.secret", secret());
  const { privateKey } =
    algorithm === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("ed25519");
  return keyOf(
    "platform.auth.jwt.private-key",
    privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  );
}

function secret(): string {
  return `base64url:${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

function keyOf(property: string, value: string): ConfigurationKey {
  return { property, env: envNameOf(property), value };
}
