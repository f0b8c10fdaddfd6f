import type { InjectionToken } from "tsyringe";

/**
 * Turns passwords into self-describing encoded hashes and checks them. Implementations never throw
 * from `verify`, `needsRehash` or `dummyVerify`: a malformed or hostile stored hash is simply "no match".
 */
export interface PasswordHasher {
  /** A new encoded hash with a fresh salt; throws PlatformError `VALIDATION_FAILED` on an unusable password. */
  hash(password: string): Promise<string>;
  /** True when `password` matches `encoded`; false on mismatch and on any malformed input. */
  verify(password: string, encoded: string): Promise<boolean>;
  /** True when `encoded` was made with other parameters than the current ones (or cannot be read). */
  needsRehash(encoded: string): boolean;
  /**
   * Does the work of one `verify` with the current parameters and discards the result. Call it for
   * unknown users, so that timing and work do not reveal whether a username exists.
   */
  dummyVerify(password: string): Promise<void>;
}

/** DI token of the PasswordHasher port. */
export const PasswordHasher: InjectionToken<PasswordHasher> = Symbol.for("platform.PasswordHasher");
