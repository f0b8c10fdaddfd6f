import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { PlatformError } from "../platform-error.js";

/** Smallest key-encryption key accepted, in bytes. */
export const MIN_KEY_ENCRYPTION_KEY_BYTES = 32;

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals key material for a KeyStore with AES-256-GCM under a key-encryption key (KEK). The key's
 * purpose, id and algorithm are the additional authenticated data, so sealed material cannot be moved
 * to another key record. The AES key is derived from the KEK with HKDF-SHA256, so any 32 or more
 * bytes of entropy will do. Sealed form: `v1.<iv>.<ciphertext+tag>`, both base64url.
 */
export class KeySealer {
  private readonly aesKey: Buffer;

  /** `kek`: at least 32 bytes (a configured secret, or random bytes for a process-local store). */
  constructor(kek: Uint8Array) {
    if (kek.length < MIN_KEY_ENCRYPTION_KEY_BYTES) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `A key-encryption key must be at least ${MIN_KEY_ENCRYPTION_KEY_BYTES} bytes (it has ${kek.length})`,
      );
    }
    this.aesKey = Buffer.from(hkdfSync("sha256", kek, new Uint8Array(0), "platform.keys.kek.v1", 32));
  }

  /** A sealer under a random KEK, for a store that dies with the process. */
  static ephemeral(): KeySealer {
    return new KeySealer(new Uint8Array(randomBytes(MIN_KEY_ENCRYPTION_KEY_BYTES)));
  }

  /** Seals `material` bound to `label` (purpose, kid and algorithm of its record). */
  seal(material: Uint8Array, label: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.aesKey, iv);
    cipher.setAAD(Buffer.from(label, "utf8"));
    const sealed = Buffer.concat([cipher.update(material), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
  }

  /**
   * The material sealed under `label`; PlatformError `CONFIGURATION_INVALID` when it was sealed under
   * another KEK or label, or is not sealed material (the message names the label, never the material).
   */
  open(sealed: string, label: string): Uint8Array {
    const [format, iv, body, ...rest] = sealed.split(".");
    try {
      if (format !== FORMAT || !iv || !body || rest.length > 0) throw new Error("not sealed material");
      const bytes = Buffer.from(body, "base64url");
      if (bytes.length < TAG_BYTES) throw new Error("sealed material too short");
      const decipher = createDecipheriv("aes-256-gcm", this.aesKey, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(label, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return new Uint8Array(
        Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]),
      );
    } catch (cause) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Stored key ${label} cannot be opened with this key-encryption key (was platform.keys.encryption-key changed?)`,
        { cause },
      );
    }
  }
}
