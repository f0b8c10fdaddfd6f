import type { PlatformProperties } from "../../kernel/properties.js";
import type { PasswordHasher } from "./password-hasher.js";
import { scryptOptionsFromProperties } from "./password-hasher.properties.js";
import { ScryptPasswordHasher } from "./scrypt-password-hasher.js";

/**
 * The platform's own PasswordHasher (scrypt, at the cost `platform.auth.password.scrypt.*` sets): the
 * identity module's default, and what a host's hasher delegates to for new hashes when it verifies
 * hashes of its own (bcrypt, argon2) and lets the next sign-in upgrade them (`needsRehash`).
 */
export function platformPasswordHasher(properties: PlatformProperties): PasswordHasher {
  return new ScryptPasswordHasher(scryptOptionsFromProperties(properties));
}
