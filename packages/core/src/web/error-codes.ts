/**
 * Every stable error code of the platform and the HTTP status it answers with. One table, reused by
 * the core's security runtime and by every HTTP binding. Codes are UPPER_SNAKE and never renamed.
 */
export const ERROR_STATUS = {
  // request shape
  BAD_REQUEST: 400,
  REQUEST_REJECTED: 400,
  MALFORMED_JSON: 400,
  MALFORMED_BODY: 400,
  VALIDATION_FAILED: 400,
  POLICY_EXPRESSION_INVALID: 400,
  MISSING_PARAMETER: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  CLIENT_ABORTED: 400, // the client closed the connection mid-body; logged, never delivered
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  // authentication
  AUTHENTICATION_REQUIRED: 401,
  BAD_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  REFRESH_TOKEN_RACE_LOST: 401, // a concurrent refresh of the same token won a moment ago; family kept
  ACCOUNT_LOCKED: 423,
  ACCOUNT_DISABLED: 401,
  TOO_MANY_ATTEMPTS: 429,
  CSRF_TOKEN_INVALID: 403,
  ACCESS_DENIED: 403,
  MFA_CHALLENGE_REQUIRED: 401,
  MFA_SESSION_EXPIRED: 401,
  MFA_TIMEOUT: 401,
  MFA_SESSION_BINDING_INVALID: 403,
  MFA_FACTOR_VERIFICATION_FAILED: 401,
  MFA_SESSION_REQUIRED: 401,
  MFA_SIGN_IN_ENDED: 401, // the sign-in a step-up would upgrade was signed out, revoked, or is not the caller's
  PASSWORD_RESET_TOKEN_INVALID: 400, // a reset link that is unknown, expired, spent or whose account is gone
  WEBAUTHN_CHALLENGE_INVALID: 400,
  WEBAUTHN_VERIFICATION_FAILED: 401,
  WEBAUTHN_COUNTER_REGRESSION: 401,
  AUTHENTICATION_BLOCKED: 403,
  // zero trust (authz/zerotrust)
  ZERO_TRUST_BLOCKED: 403,
  ZERO_TRUST_REVIEW_REQUIRED: 423,
  ZERO_TRUST_PENDING_ANALYSIS: 503,
  SUBJECT_NOT_FOUND: 404, // an admin named a zero-trust subject that is no user
  // state
  CONFLICT: 409,
  ILLEGAL_STATE_TRANSITION: 409,
  // configuration and start-up (never reach a client in practice; 500 if they do)
  CONFIGURATION_INVALID: 500,
  UNSUPPORTED_OPERATION: 500,
  PROPERTY_INVALID: 500,
  DEPENDENCY_MISSING: 500,
  DELIVERY_FAILED: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, number>;

/** A code listed in ERROR_STATUS. */
export type KnownErrorCode = keyof typeof ERROR_STATUS;

/** The HTTP status for a code; unknown codes answer 500 so a new code never leaks as a success. */
export function statusForCode(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
