import { PlatformError, type PlatformErrorOptions } from "../../kernel/platform-error.js";
import { IDENTITY_ERROR_CODES } from "../identity-error-codes.js";

/**
 * The passkey codes of the identity table. The other errors passkeys raise reuse existing codes:
 * VALIDATION_FAILED (400), CONFLICT (409), NOT_FOUND (404), AUTHENTICATION_REQUIRED (401),
 * ACCOUNT_LOCKED (423), ACCOUNT_DISABLED (401).
 */
export type PasskeyErrorCode =
  | "WEBAUTHN_CHALLENGE_INVALID"
  | "WEBAUTHN_VERIFICATION_FAILED"
  | "WEBAUTHN_COUNTER_REGRESSION";

/**
 * A PlatformError with one of the passkey codes. Its status is set from IDENTITY_ERROR_CODES, so the
 * error answers right wherever it is caught, whichever tables were loaded.
 */
export function passkeyError<C extends PasskeyErrorCode>(
  code: C,
  message: string,
  options: Omit<PlatformErrorOptions<C>, "status"> = {},
): PlatformError<C> {
  return new PlatformError(code, message, { ...options, status: IDENTITY_ERROR_CODES[code].status });
}
