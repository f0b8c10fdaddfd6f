import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../web/web-error-codes.js";

/**
 * The identity module's error codes: signing in (password, one-time token, passkey), sessions and
 * tokens, CSRF, static access rules, password reset and the delivery of one-time tokens.
 */
export const IDENTITY_ERROR_CODES = {
  AUTHENTICATION_REQUIRED: {
    status: 401,
    meaning: "The resource needs a signed-in caller and the request carries no valid session or token.",
    remedy: "Sign in (or send `Authorization: Bearer <access token>`) and retry.",
  },
  BAD_CREDENTIALS: {
    status: 401,
    meaning: "The username or the password is wrong (the answer does not say which).",
    remedy: "Check both and sign in again; repeated failures are throttled.",
  },
  INVALID_TOKEN: {
    status: 401,
    meaning: "An access, refresh or one-time token is malformed, unknown, revoked or already used.",
    remedy: "Sign in again, or request a new token.",
  },
  TOKEN_EXPIRED: {
    status: 401,
    meaning: "The access token's lifetime is over.",
    remedy:
      "Exchange the refresh token for a new pair (`POST /api/token/refresh` by default), or sign in again.",
  },
  REFRESH_TOKEN_RACE_LOST: {
    status: 401,
    meaning: "A concurrent refresh of the same refresh token won a moment ago; the token family is kept.",
    remedy: "Use the tokens the winning request received; do not refresh again with the spent token.",
  },
  ACCOUNT_LOCKED: {
    status: 423,
    meaning: "The credentials are right but the account is locked.",
    remedy: "Ask an administrator to unlock the account.",
  },
  ACCOUNT_DISABLED: {
    status: 401,
    meaning: "The credentials are right but the account is disabled.",
    remedy: "Ask an administrator to enable the account.",
  },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    meaning:
      "Too many failed attempts from this address (or for this account from it); `retryAfterSeconds` says how long to wait.",
    remedy: "Wait `retryAfterSeconds` (also in `Retry-After`) before trying again.",
  },
  CSRF_TOKEN_INVALID: {
    status: 403,
    meaning: "A state-changing request on a session carries no CSRF token, or not the session's.",
    remedy: "Send the token from the page's `_csrf` meta tag or hidden field as `X-CSRF-TOKEN` (or `_csrf`).",
  },
  ACCESS_DENIED: {
    status: 403,
    meaning: "The caller is signed in but a rule or policy does not let them do this.",
    remedy: "Ask an administrator for the authority or policy the action needs.",
  },
  PASSWORD_RESET_TOKEN_INVALID: {
    status: 400,
    meaning: "The password-reset link is unknown, expired or spent, or its account is gone.",
    remedy: "Ask for a new reset link.",
  },
  WEBAUTHN_CHALLENGE_INVALID: {
    status: 400,
    meaning:
      "No live passkey challenge for this browser: missing cookie, used, expired, or another browser's or user's.",
    remedy: "Start the passkey ceremony again (fetch new options).",
  },
  WEBAUTHN_VERIFICATION_FAILED: {
    status: 401,
    meaning:
      "The passkey response did not verify: origin, RP id, signature, user verification or an unknown credential.",
    remedy: "Retry with a passkey registered for this site and account.",
  },
  WEBAUTHN_COUNTER_REGRESSION: {
    status: 401,
    meaning:
      "A validly signed passkey assertion whose counter did not increase: a cloned authenticator is suspected.",
    remedy:
      "Use another sign-in method and review (or remove) the passkey; an administrator should investigate.",
  },
  LAST_ADMINISTRATOR: {
    status: 409,
    meaning:
      "The change (disable, delete, authorities, a zero-trust BLOCK or ESCALATE) would leave no available administrator.",
    remedy:
      "Make another account an available administrator first; if none is left, use `platform break-glass` (docs/production.md).",
  },
  DELIVERY_FAILED: {
    status: 503,
    meaning:
      "A one-time token or code could not be handed to its delivery channel (the outbox could not be written, the SMTP server refused the message or could not be reached, the account has no address SMTP can use).",
    remedy:
      "Operator: check the delivery channel (outbox file, mailer). Only an administrator's reset link waits for its delivery and sees this answer (nothing was sent; ask again); sign-in paths deliver after their answer, so a caller never sees it.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the identity codes that carry any. */
export type IdentityErrorDetails = {
  /** `maxCodes` when the limit was the MFA codes sent for one sign-in. */
  TOO_MANY_ATTEMPTS: { retryAfterSeconds: number; maxCodes?: number };
  /** A lockout after failed second factors says when it ends and how many attempts it allowed. */
  ACCOUNT_LOCKED: { retryAfterSeconds?: number; attemptsMade?: number; maxAttempts?: number };
};

/** The identity codes mapped to their details types (merged into PlatformErrorCodes). */
export type IdentityErrorCodes = ErrorCodesOf<typeof IDENTITY_ERROR_CODES, IdentityErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends IdentityErrorCodes {}
}
