import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The KeyStore purpose of the key that seals authenticator-app secrets. */
export const TOTP_SEAL_KEY_PURPOSE = "mfa.totp-secret";

const FORMAT = "t1";

/**
 * Seals TOTP secrets with AES-256-GCM under a key kept in the KeyRing (made by the first instance,
 * shared by every instance on the same KeyStore). The account id is the additional authenticated
 * data, so a sealed secret cannot be moved to another account. Form: `t1.<iv>.<ciphertext+tag>`.
 */
export class TotpSecretSeal {
  private key: Buffer | undefined;

  /** Reads (or makes) the sealing key; called at start. */
  async start(ring: KeyRing): Promise<void> {
    const kept = await ring.active(TOTP_SEAL_KEY_PURPOSE, () => ({
      kid: randomBytes(12).toString("base64url"),
      algorithm: "A256GCM",
      secret: new Uint8Array(randomBytes(32)),
    }));
    this.key = Buffer.from(kept.secret);
  }

  /** `secret` sealed for `userId`. */
  seal(secret: Uint8Array, userId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.started(), iv);
    cipher.setAAD(Buffer.from(`totp:${userId}`, "utf8"));
    const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  /** The secret sealed for `userId`; undefined when it was sealed for another account or key. */
  open(sealed: string, userId: string): Uint8Array | undefined {
    const [format, iv, body, ...rest] = sealed.split(".");
    if (format !== FORMAT || !iv || !body || rest.length > 0) return undefined;
    try {
      const bytes = Buffer.from(body, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", this.started(), Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(`totp:${userId}`, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return new Uint8Array(
        Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]),
      );
    } catch {
      return undefined;
    }
  }

  private started(): Buffer {
    if (!this.key)
      throw new PlatformError("DEPENDENCY_MISSING", "TOTP secrets are used before the platform started");
    return this.key;
  }
}
