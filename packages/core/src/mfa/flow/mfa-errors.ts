import type { ErrorDetailsOf } from "../../kernel/error-code-table.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { MFA_ERROR_CODES } from "../mfa-error-codes.js";

/** A code of the MFA module's table. */
export type MfaErrorCode = keyof typeof MFA_ERROR_CODES;

/** A PlatformError with one of the MFA codes, its status set from MFA_ERROR_CODES (meaning and remedy are there too). */
export function mfaError<C extends MfaErrorCode>(
  code: C,
  message: string,
  details?: ErrorDetailsOf<C>,
): PlatformError<C> {
  return new PlatformError(code, message, { details, status: MFA_ERROR_CODES[code].status });
}
