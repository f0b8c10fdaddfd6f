import type { MfaStepEndpoints } from "../web/wire/mfa-messages.js";
import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../identity/identity-error-codes.js";

/**
 * The MFA module's error codes: the step-up challenge (a `recentFactor` rule, or a zero-trust
 * CHALLENGE), the MFA session and its factors, blocked sign-ins.
 */
export const MFA_ERROR_CODES = {
  MFA_CHALLENGE_REQUIRED: {
    status: 401,
    meaning:
      "The resource needs a recent second factor; the body names the MFA session and where to complete it.",
    remedy: "Complete the challenge at `mfaUrl` (or the `endpoints` given), then retry the request.",
  },
  MFA_SESSION_EXPIRED: {
    status: 401,
    meaning: "The MFA session ended, timed out, or was never issued to this caller.",
    remedy: "Sign in again to start a new MFA session.",
  },
  MFA_TIMEOUT: {
    status: 401,
    meaning: "The MFA flow is older than its session timeout.",
    remedy: "Sign in again; complete the factor within the timeout.",
  },
  MFA_SESSION_BINDING_INVALID: {
    status: 403,
    meaning:
      "The MFA session is not bound to this caller (no or wrong binding cookie or header) or belongs to another flow.",
    remedy: "Continue the MFA flow from the browser or client that started it.",
  },
  MFA_FACTOR_VERIFICATION_FAILED: {
    status: 401,
    meaning:
      "A factor was presented and did not verify; `attemptsMade` and `maxAttempts` say how many tries are left.",
    remedy: "Try the factor again, or request a new code; the account locks at `maxAttempts`.",
  },
  MFA_SESSION_REQUIRED: {
    status: 401,
    meaning: "No MFA session is in progress for this caller.",
    remedy: "Sign in first; the MFA session starts after the primary sign-in.",
  },
  MFA_SIGN_IN_ENDED: {
    status: 401,
    meaning: "The sign-in a step-up would upgrade is gone: signed out, revoked, or not the caller's.",
    remedy: "Sign in again, then repeat the step-up.",
  },
  AUTHENTICATION_BLOCKED: {
    status: 403,
    meaning:
      "The MFA policy blocked this sign-in (a blocking decision, no usable second factor, or a policy that could not decide).",
    remedy: "Contact an administrator; a later sign-in may be decided differently.",
  },
  EMAIL_CHANGE_LINK_INVALID: {
    status: 400,
    meaning:
      "The e-mail change link is malformed, forged, expired or already used, or the new address cannot be used.",
    remedy: "Ask for a new link from the account (PUT /api/account/email).",
  },
  SESSION_IS_CURRENT: {
    status: 409,
    meaning: "The session named is the one the request came with; the account's session list never ends it.",
    remedy: "Sign out (the chain's logout) to end this session; end the others by their handles.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the MFA codes that carry any. */
export type MfaErrorDetails = {
  /**
   * `maxAgeSeconds` of the rule; with a started step-up, its session, state, URL and endpoints; for a
   * zero-trust CHALLENGE written by a security decision, its `decisionId`.
   */
  MFA_CHALLENGE_REQUIRED: {
    maxAgeSeconds: number;
    mfaUrl?: string;
    mfaSessionId?: string;
    currentState?: string;
    endpoints?: Readonly<MfaStepEndpoints>;
    mfaBinding?: string;
    /** A zero-trust CHALLENGE: the security decision that asked for it. */
    decisionId?: string;
  };
  MFA_SESSION_EXPIRED: { state?: string };
  MFA_FACTOR_VERIFICATION_FAILED: { attemptsMade: number; maxAttempts: number };
  AUTHENTICATION_BLOCKED: { decision?: string };
};

/** The MFA codes mapped to their details types (merged into PlatformErrorCodes). */
export type MfaErrorCodes = ErrorCodesOf<typeof MFA_ERROR_CODES, MfaErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends MfaErrorCodes {}
}
