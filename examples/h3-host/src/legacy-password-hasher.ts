import type { PasswordHasher } from "@keyward/core/ports";
import { argon2Verify, bcryptVerify } from "hash-wasm";

/** bcrypt's modular-crypt form (`$2a$`, `$2b$`, `$2y$`, cost, 53 characters of salt and hash). */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
/** argon2's PHC form (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`; argon2i and argon2d too). */
const ARGON2 = /^\$argon2(id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
/** bcrypt reads at most 72 bytes of a password; the system that made these hashes cut the rest off. */
const BCRYPT_MAX_BYTES = 72;

/** True for a hash this service's previous system wrote (bcrypt or argon2), not the platform's own. */
export function isLegacyHash(encoded: string): boolean {
  return BCRYPT.test(encoded) || ARGON2.test(encoded);
}

/**
 * A PasswordHasher that still verifies the bcrypt and argon2 hashes the host's users came with
 * (hash-wasm) and otherwise is the platform's own (`platformPasswordHasher`): new hashes are scrypt,
 * and `needsRehash` says yes for every legacy hash, so the platform replaces it with a scrypt hash at
 * that user's next successful sign-in (the password is at hand only then). Like every PasswordHasher
 * it never throws from `verify`: a malformed hash is simply no match.
 */
export class LegacyPasswordHasher implements PasswordHasher {
  constructor(private readonly current: PasswordHasher) {}

  hash(password: string): Promise<string> {
    return this.current.hash(password);
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    try {
      if (BCRYPT.test(encoded)) {
        const bytes = new TextEncoder().encode(password).subarray(0, BCRYPT_MAX_BYTES);
        return await bcryptVerify({ password: bytes, hash: encoded });
      }
      if (ARGON2.test(encoded)) return await argon2Verify({ password, hash: encoded });
    } catch {
      return false; // hash-wasm refuses some malformed hashes by throwing
    }
    return this.current.verify(password, encoded);
  }

  needsRehash(encoded: string): boolean {
    return isLegacyHash(encoded) || this.current.needsRehash(encoded);
  }

  dummyVerify(password: string): Promise<void> {
    return this.current.dummyVerify(password);
  }
}
