import { escapeHtml } from "../../web/html-escape.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { cancelFormHtml, noticeHtml, tryAnotherMethodHtml } from "./mfa-page-parts.js";
import { MFA_PAGE_SCRIPTS, renderMfaPageShell } from "./mfa-page-shell.js";

/** What the OTT challenge (code entry) page shows. */
export interface OttChallengePageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The caller's MFA session. */
  mfaSessionId: string;
  /** `POST` MFA OTT processing: the verify form's action. */
  loginProcessingUrl: string;
  /** `POST` generate-code endpoint: the resend form's action. */
  generateCodeUrl: string;
  /** The failure page (`data-failure-url`). */
  failureUrl: string;
  /** `POST` cancel endpoint. */
  cancelUrl: string;
  /** Digits of the code. */
  codeLength: number;
  /** Failed attempts so far in this MFA session. */
  attemptsMade: number;
  /** Attempts allowed before the account locks. */
  maxAttempts: number;
  /** Where the code went, already masked. */
  destination?: string | undefined;
  /** The selection page, when another factor is available ("Try another method"). */
  selectFactorPageUrl?: string | undefined;
  /** An error line (wrong or expired code). */
  error?: string | undefined;
  /** A status line (code sent). */
  status?: string | undefined;
}

/**
 * The OTT challenge page: `token` (numeric, one-time-code autofill, the configured length) posted by
 * `verifyButton` to the MFA OTT processing URL; `resendButton` posts to generate-code; attempts made
 * and allowed are shown.
 */
export function renderOttChallengePage(m: OttChallengePageModel): string {
  const hidden = { csrfToken: m.csrfToken, mfaSessionId: m.mfaSessionId };
  const length = escapeHtml(String(m.codeLength));
  const where =
    m.destination === undefined
      ? `Enter the ${length}-digit code we sent you.`
      : `Enter the ${length}-digit code we sent to <strong>${escapeHtml(m.destination)}</strong>.`;
  return renderMfaPageShell({
    title: "Enter your code",
    csrfToken: m.csrfToken,
    pageScript: MFA_PAGE_SCRIPTS.ottVerify,
    config: {
      "attempts-made": m.attemptsMade,
      "max-attempts": m.maxAttempts,
      "failure-url": m.failureUrl,
      "mfa-session-id": m.mfaSessionId,
    },
    body: `${noticeHtml("error", m.error)}${noticeHtml("status", m.status)}
<p id="ottInstructions">${where}</p>
<form id="ottVerifyForm" method="post" action="${escapeHtml(m.loginProcessingUrl)}">
<label for="token">Verification code</label>
<input id="token" name="token" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{${length}}" minlength="${length}" maxlength="${length}" required autofocus>
${hiddenInputsHtml(hidden)}
<button id="verifyButton" type="submit">Verify</button>
</form>
<p id="ottAttempts">Attempts: ${escapeHtml(String(m.attemptsMade))} of ${escapeHtml(String(m.maxAttempts))}</p>
<form id="ottResendForm" method="post" action="${escapeHtml(m.generateCodeUrl)}">
${hiddenInputsHtml(hidden)}
<button id="resendButton" type="submit">Send a new code</button>
</form>
${tryAnotherMethodHtml(m.selectFactorPageUrl)}
${cancelFormHtml(m.cancelUrl, hidden)}`,
  });
}
