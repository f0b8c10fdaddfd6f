import { PlatformError } from "../../../kernel/platform-error.js";
import { MAX_USERNAME_LENGTH, newUsernameProblem } from "../check-new-username.js";
import { normalizeUsername } from "../username-key.js";

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
  if (hasLoneSurrogate(password)) throw invalid(field, "must be well-formed Unicode");
  return password;
}

function invalid(path: string, message: string, reason?: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message, ...(reason === undefined ? {} : { reason }) }] },
  });
}

/** Longest username an administrator may create (the username rule's limit, in code points). */
export const MAX_NEW_USERNAME_LENGTH = MAX_USERNAME_LENGTH;

/**
 * Checks a new username by the rule every UserRepository runs on create and rename
 * (`newUsernameProblem`: RFC 8265 UsernameCaseMapped, no default-ignorable code point, UTS #39
 * "Highly Restrictive" scripts), so the admin API names the field before it hashes a password.
 * Returns the display form; throws VALIDATION_FAILED naming the field and the rule (`reason`).
 */
export function assertAcceptableUsername(username: unknown, field = "username"): string {
  const problem = newUsernameProblem(username);
  if (problem) throw invalid(field, problem.message, problem.rule);
  return normalizeUsername(username as string);
}

/** True when `text` holds a UTF-16 surrogate without its pair (not well-formed Unicode). */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    }
  }
  return false;
}
