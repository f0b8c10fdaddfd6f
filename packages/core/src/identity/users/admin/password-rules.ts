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
  if (typeof password !== "string") throw invalidPassword(field, "must be a string");
  const length = [...password].length;
  if (length < MIN_NEW_PASSWORD_LENGTH || length > MAX_NEW_PASSWORD_LENGTH) {
    throw invalidPassword(
      field,
      `must be ${MIN_NEW_PASSWORD_LENGTH} to ${MAX_NEW_PASSWORD_LENGTH} characters`,
    );
  }
  for (let i = 0; i < password.length; i++) {
    const c = password.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) throw invalidPassword(field, "must not contain control characters");
  }
  return password;
}

function invalidPassword(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
