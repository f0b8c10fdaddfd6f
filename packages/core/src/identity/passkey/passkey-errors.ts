import { PlatformError, type PlatformErrorOptions } from "../../kernel/platform-error.js";

/**
 * The passkey module's own error codes and their HTTP statuses, to be merged into the core code table
 * (`ERROR_STATUS`). The other errors passkeys raise reuse existing codes: VALIDATION_FAILED (400),
 * CONFLICT (409), NOT_FOUND (404), AUTHENTICATION_REQUIRED (401), ACCOUNT_LOCKED (423),
 * ACCOUNT_DISABLED (401).
 */
export const PASSKEY_ERROR_STATUS = {
  /** No live challenge for this browser: missing cookie, used, expired, another browser's or user's. */
  WEBAUTHN_CHALLENGE_INVALID: 400,
  /** The response did not verify: origin, RP id, signature, user verification, unknown credential. */
  WEBAUTHN_VERIFICATION_FAILED: 401,
  /** A validly signed assertion whose counter did not increase: a cloned authenticator is suspected. */
  WEBAUTHN_COUNTER_REGRESSION: 401,
} as const satisfies Record<string, number>;

/** A code of PASSKEY_ERROR_STATUS. */
export type PasskeyErrorCode = keyof typeof PASSKEY_ERROR_STATUS;

/**
 * A PlatformError with one of the passkey codes. Its status is set from PASSKEY_ERROR_STATUS, so the
 * answer is right even where the core code table does not list the code yet.
 */
export function passkeyError(
  code: PasskeyErrorCode,
  message: string,
  options: Omit<PlatformErrorOptions, "status"> = {},
): PlatformError {
  return new PlatformError(code, message, { ...options, status: PASSKEY_ERROR_STATUS[code] });
}
