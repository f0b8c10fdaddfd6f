import { PlatformError } from "../../kernel/platform-error.js";

/** The MFA error codes and their HTTP statuses (merged into the core table). */
export const MFA_ERROR_STATUS = {
  /** The MFA session ended, timed out, or was never issued to this caller. */
  MFA_SESSION_EXPIRED: 401,
  /** The flow is older than sessionTimeoutMs. */
  MFA_TIMEOUT: 401,
  /** The request's MFA session is not bound to this caller (no or wrong binding cookie). */
  MFA_SESSION_BINDING_INVALID: 403,
  /** A factor was presented and did not verify; the body says attemptsMade and maxAttempts. */
  MFA_FACTOR_VERIFICATION_FAILED: 401,
  /** No MFA session is in progress for this caller. */
  MFA_SESSION_REQUIRED: 401,
  /** The sign-in a step-up would upgrade is gone: signed out, revoked, or not the caller's. */
  MFA_SIGN_IN_ENDED: 401,
} as const;

/** A PlatformError with one of the MFA codes. */
export function mfaError(
  code: keyof typeof MFA_ERROR_STATUS,
  message: string,
  details?: Record<string, unknown>,
): PlatformError {
  return new PlatformError(code, message, { details, status: MFA_ERROR_STATUS[code] });
}
