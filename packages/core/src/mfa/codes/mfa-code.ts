import { createHmac, randomInt } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** Shortest MFA code the platform issues (`platform.auth.mfa.otpTokenLength` lower bound). */
export const MFA_CODE_MIN_LENGTH = 4;
/** Longest MFA code the platform issues (`platform.auth.mfa.otpTokenLength` upper bound). */
export const MFA_CODE_MAX_LENGTH = 12;

/** A uniform random integer in [min, max), as `crypto.randomInt`. */
export type RandomInt = (min: number, max: number) => number;

/** Options of hashing and verifying MFA codes. */
export interface MfaCodeOptions {
  /**
   * The HMAC key: the same on every instance that shares a FactorContextRepository (the MFA plugin
   * keeps it in the KeyRing: `mfaCodeKeyOf`).
   */
  readonly secret: string | Uint8Array;
  /** For verification: the exact length a presented code must have (the configured otpTokenLength). */
  readonly length?: number;
}

const DIGITS = /^[0-9]+$/;

/**
 * A numeric code of `length` (4 to 12) uniform digits: one `random(0, 10)` draw per digit, so there
 * is no modulo bias and no rejection loop. `random` defaults to `crypto.randomInt` (a CSPRNG); tests
 * pass their own.
 */
export function generateMfaCode(length: number, random: RandomInt = randomInt): string {
  if (!Number.isInteger(length) || length < MFA_CODE_MIN_LENGTH || length > MFA_CODE_MAX_LENGTH) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `MFA code length must be an integer from ${MFA_CODE_MIN_LENGTH} to ${MFA_CODE_MAX_LENGTH}`,
      { details: { length } },
    );
  }
  let code = "";
  for (let i = 0; i < length; i++) {
    const digit = random(0, 10);
    if (!Number.isInteger(digit) || digit < 0 || digit > 9) {
      throw new PlatformError("INTERNAL_ERROR", "random source returned a value outside 0..9");
    }
    code += digit;
  }
  return code;
}

/**
 * The stored form of a code: HMAC-SHA256 (hex) of `<mfaSessionId>:<code>` under a secret key. Keyed
 * rather than a plain SHA-256 because a 6-digit code has only 10^6 values: whoever reads the store
 * could otherwise invert every hash at once. The session id in the MAC binds the code to its MFA
 * session, so a code is worthless in any other session. Throws on a malformed code (a caller bug).
 */
export function hashMfaCode(code: string, mfaSessionId: string, options: MfaCodeOptions): string {
  if (!isWellFormed(code) || mfaSessionId.length === 0) {
    throw new PlatformError("INTERNAL_ERROR", "hashMfaCode needs a 4-12 digit code and an MFA session id");
  }
  return createHmac("sha256", options.secret).update(`${mfaSessionId}:${code}`, "utf8").digest("hex");
}

/**
 * True when `presented` is the code hashed into `expectedHash` for this MFA session. Never throws:
 * a non-string, a wrong length (when `options.length` is set, else outside 4..12) or a non-digit
 * answers false. The hashes are compared in constant time. No trimming: the endpoint normalises input.
 */
export function verifyMfaCode(
  presented: unknown,
  expectedHash: string,
  mfaSessionId: string,
  options: MfaCodeOptions,
): boolean {
  if (typeof presented !== "string" || !isWellFormed(presented) || mfaSessionId.length === 0) return false;
  if (options.length !== undefined && presented.length !== options.length) return false;
  return constantTimeEquals(hashMfaCode(presented, mfaSessionId, options), expectedHash);
}

function isWellFormed(code: string): boolean {
  return code.length >= MFA_CODE_MIN_LENGTH && code.length <= MFA_CODE_MAX_LENGTH && DIGITS.test(code);
}
