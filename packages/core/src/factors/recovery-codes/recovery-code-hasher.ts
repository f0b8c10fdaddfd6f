import { createHmac, randomBytes } from "node:crypto";
import type { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The KeyStore purpose of the key recovery codes are hashed with. */
export const RECOVERY_CODE_KEY_PURPOSE = "mfa.recovery-code";

/**
 * Hashes recovery codes with HMAC-SHA-256 under a key kept in the KeyRing (made by the first instance,
 * shared by every instance on the same KeyStore), bound to the account id: a dumped store holds no
 * code and cannot be searched offline without the key, and one account's hash never matches another's.
 * The store looks codes up by this hash, so checking a code is one keyed hash and one lookup.
 */
export class RecoveryCodeHasher {
  private key: Buffer | undefined;

  /** Reads (or makes) the hashing key; called at start. */
  async start(ring: KeyRing): Promise<void> {
    const kept = await ring.active(RECOVERY_CODE_KEY_PURPOSE, () => ({
      kid: randomBytes(12).toString("base64url"),
      algorithm: "HS256",
      secret: new Uint8Array(randomBytes(32)),
    }));
    this.key = Buffer.from(kept.secret);
  }

  /** The hash of `normalizedCode` (see `normalizedRecoveryCode`) for `userId`. */
  hash(userId: string, normalizedCode: string): string {
    if (!this.key) {
      throw new PlatformError("DEPENDENCY_MISSING", "Recovery codes are used before the platform started");
    }
    return createHmac("sha256", this.key).update(`${userId}\n${normalizedCode}`, "utf8").digest("base64url");
  }
}
