import { PlatformError } from "../../../kernel/platform-error.js";

/** Shortest password an administrator or a reset may set. */
export const MIN_NEW_PASSWORD_LENGTH = 8;
/** Longest password accepted (bounds the hashing work an attacker can ask for). */
export const MAX_NEW_PASSWORD_LENGTH = 256;

/**
 * Checks a new password: a string of 8 to 256 characters without control characters. Throws
 * VALIDATION_FAILED naming the field; the password itself never appears in the error.
 */
export function assertAcceptablePassword(password: unknown, field = "password"): string {
  if (typeof password !== "string") throw invalid(field, "must be a string");
  const length = [...password].length;
  if (length < MIN_NEW_PASSWORD_LENGTH || length > MAX_NEW_PASSWORD_LENGTH) {
    throw invalid(field, `must be ${MIN_NEW_PASSWORD_LENGTH} to ${MAX_NEW_PASSWORD_LENGTH} characters`);
  }
  for (let i = 0; i < password.length; i++) {
    const c = password.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) throw invalid(field, "must not contain control characters");
  }
  return password;
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}

/** Longest username an administrator may create. */
export const MAX_NEW_USERNAME_LENGTH = 128;
// Control (Cc), format (Cf: zero-width, bidi overrides) and line/paragraph separator characters.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Checks a new username: 1 to 128 characters after trimming, none of them control, format
 * (zero-width, bidi) or separator characters, so no two accounts can look alike by an invisible
 * difference. Throws VALIDATION_FAILED naming the field.
 */
export function assertAcceptableUsername(username: unknown, field = "username"): string {
  if (typeof username !== "string") throw invalid(field, "must be a string");
  const trimmed = username.normalize("NFKC").trim();
  const length = [...trimmed].length;
  if (length < 1 || length > MAX_NEW_USERNAME_LENGTH) {
    throw invalid(field, `must be 1 to ${MAX_NEW_USERNAME_LENGTH} characters`);
  }
  if (INVISIBLE.test(trimmed)) {
    throw invalid(field, "must not contain control, zero-width or other invisible characters");
  }
  return trimmed;
}
