import { escapeHtml } from "../../web/html-escape.js";
import { renderMfaPageShell } from "./mfa-page-shell.js";

/** Why an MFA flow ended without success, as the failure page explains it. */
export type MfaFailureReason =
  | "cancelled"
  | "timeout"
  | "locked"
  | "expired"
  | "blocked"
  | "failed"
  | "error";

/** What the failure page shows. */
export interface MfaFailurePageModel {
  /** The CSRF token; undefined when the request has none. */
  csrfToken: string | undefined;
  /** The terminal state, as a reason. */
  reason: MfaFailureReason;
  /** For `locked`: when the user may try again. */
  lockedUntil?: Date | undefined;
  /** An extra line of detail (escaped). */
  detail?: string | undefined;
  /** Where "Sign in again" goes. */
  loginPageUrl: string;
}

const MESSAGES: Readonly<Record<MfaFailureReason, string>> = {
  cancelled: "You cancelled the sign-in.",
  timeout: "The sign-in took too long and timed out.",
  locked: "Too many failed attempts: the account is temporarily locked.",
  expired: "This sign-in session has expired or has already ended.",
  blocked: "This sign-in was blocked.",
  failed: "The verification failed.",
  error: "Something went wrong during sign-in.",
};

/** Maps a terminal MFA state (or a BLOCKED/ESCALATED decision) to the reason the failure page shows. */
export function mfaFailureReasonFor(state: string): MfaFailureReason {
  switch (state) {
    case "MFA_CANCELLED":
      return "cancelled";
    case "MFA_TIMEOUT":
      return "timeout";
    case "MFA_ACCOUNT_LOCKED":
      return "locked";
    case "MFA_SESSION_EXPIRED":
      return "expired";
    case "BLOCKED":
    case "ESCALATED":
      return "blocked";
    case "MFA_FAILED_TERMINAL":
      return "failed";
    default:
      return "error";
  }
}

/** The failure page: the reason by terminal state (with the retry time when locked) and a way back. */
export function renderMfaFailurePage(m: MfaFailurePageModel): string {
  const retryAt =
    m.reason === "locked" && m.lockedUntil !== undefined ? m.lockedUntil.toISOString() : undefined;
  const retry =
    retryAt === undefined
      ? ""
      : `\n<p id="mfaRetryAt">You can try again after <time datetime="${escapeHtml(retryAt)}">${escapeHtml(
          `${retryAt.slice(0, 16).replace("T", " ")} UTC`,
        )}</time>.</p>`;
  const detail = m.detail === undefined ? "" : `\n<p id="mfaFailureDetail">${escapeHtml(m.detail)}</p>`;
  return renderMfaPageShell({
    title: "Sign-in not completed",
    csrfToken: m.csrfToken,
    config: { "failure-reason": m.reason, "retry-at": retryAt, "login-url": m.loginPageUrl },
    body: `<p id="mfaFailureReason" role="alert" class="error">${escapeHtml(MESSAGES[m.reason])}</p>${retry}${detail}
<p><a id="signInAgainLink" class="link" href="${escapeHtml(m.loginPageUrl)}">Sign in again</a></p>`,
  });
}
