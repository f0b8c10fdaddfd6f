import { isPlatformError } from "../../kernel/platform-error.js";

/**
 * The `failureType` the HTTP layer shows a client for each sign-in error code (the form login page's
 * `?error=` and the REST login's JSON body). Codes not listed show DEFAULT_FAILURE_TYPE, so an internal
 * code never reaches a client.
 */
export const FAILURE_TYPES = Object.freeze({
  BAD_CREDENTIALS: "BAD_CREDENTIALS",
  ACCOUNT_LOCKED: "ACCOUNT_LOCKED",
  ACCOUNT_DISABLED: "ACCOUNT_DISABLED",
  TOO_MANY_ATTEMPTS: "TOO_MANY_ATTEMPTS",
  VALIDATION_FAILED: "INVALID_REQUEST",
  MISSING_PARAMETER: "INVALID_REQUEST",
  MALFORMED_JSON: "INVALID_REQUEST",
  MALFORMED_BODY: "INVALID_REQUEST",
  UNSUPPORTED_MEDIA_TYPE: "INVALID_REQUEST",
  PAYLOAD_TOO_LARGE: "INVALID_REQUEST",
  INVALID_TOKEN: "INVALID_TOKEN",
  TOKEN_EXPIRED: "TOKEN_EXPIRED",
} as const);

/** The failure type of any error that is not a listed PlatformError. */
export const DEFAULT_FAILURE_TYPE = "AUTHENTICATION_FAILED";

/** The `failureType` to show for a sign-in error: from FAILURE_TYPES, else `AUTHENTICATION_FAILED`. */
export function failureTypeOf(error: unknown): string {
  if (isPlatformError(error) && Object.hasOwn(FAILURE_TYPES, error.code)) {
    return FAILURE_TYPES[error.code as keyof typeof FAILURE_TYPES];
  }
  return DEFAULT_FAILURE_TYPE;
}
