import { randomBytes } from "node:crypto";
import type { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The KeyStore purpose of the MFA code key (the HMAC key of stored MFA codes). */
export const MFA_CODE_KEY_PURPOSE = "mfa.code";
/** Bytes of a generated MFA code key. */
const MFA_CODE_KEY_BYTES = 32;

/**
 * The HMAC key of MFA codes, kept in the KeyRing: made by the first instance, sealed in the KeyStore,
 * and read by every instance on the same (durable) store, so a code mailed by one instance verifies on
 * another and after a restart. On the in-memory KeyStore it lives as long as the process, as the
 * in-memory factor contexts do.
 */
export async function mfaCodeKeyOf(ring: KeyRing): Promise<Uint8Array> {
  const kept = await ring.active(MFA_CODE_KEY_PURPOSE, () => ({
    kid: randomBytes(12).toString("base64url"),
    algorithm: "HMAC-SHA256",
    secret: new Uint8Array(randomBytes(MFA_CODE_KEY_BYTES)),
  }));
  return kept.secret;
}

/** The MFA code key, read at start (the KeyRing is asynchronous); before that it fails closed. */
export class StartedMfaCodeKey {
  private key: Uint8Array | undefined;

  /** Installs the key read at start. */
  start(key: Uint8Array): void {
    this.key = key;
  }

  /** The key; DEPENDENCY_MISSING before the platform started. */
  get(): Uint8Array {
    if (!this.key)
      throw new PlatformError("DEPENDENCY_MISSING", "MFA codes are used before the platform started");
    return this.key;
  }
}
