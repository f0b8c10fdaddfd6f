import { randomInt } from "node:crypto";

/** The 31 characters a recovery code is written in: no 0/O, no 1/I/L, so none is misread. */
export const RECOVERY_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** Characters of one code (about 49.5 bits: log2(31) each). */
export const RECOVERY_CODE_LENGTH = 10;

/** Codes in a set. */
export const RECOVERY_CODE_COUNT = 10;

// Longest answer looked at: a code with generous spacing; anything longer is wrong unread.
const MAX_PRESENTED = 64;

/** A new code as the user reads it: two groups of five joined by a hyphen (`ABCDE-FGH23`). */
export function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++)
    code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * A presented answer in the form its hash is made of: upper case, without spaces and hyphens; undefined
 * when it cannot be a code (not a string, too long, a character outside the alphabet, not 10 left).
 */
export function normalizedRecoveryCode(presented: unknown): string | undefined {
  if (typeof presented !== "string" || presented.length > MAX_PRESENTED) return undefined;
  const code = presented.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== RECOVERY_CODE_LENGTH) return undefined;
  for (const ch of code) if (!RECOVERY_CODE_ALPHABET.includes(ch)) return undefined;
  return code;
}
