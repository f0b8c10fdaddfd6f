import { escapeHtml } from "../../web/html-escape.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { cancelFormHtml, noticeHtml, tryAnotherMethodHtml } from "./mfa-page-parts.js";
import { renderMfaPageShell } from "./mfa-page-shell.js";

/** What the challenge page of a generic code factor (a plugin's, e.g. an authenticator app) shows. */
export interface FactorCodeChallengePageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The caller's MFA session. */
  mfaSessionId: string;
  /** The factor's name (`Authenticator app`). */
  label: string;
  /** The instruction line; default "Enter the code your <label> shows." */
  instructions?: string | undefined;
  /** `text` for codes of letters and digits; default `numeric` (a number pad on phones). */
  inputMode?: "numeric" | "text" | undefined;
  /** `POST` the factor's verify URL: the form's action. */
  verifyUrl: string;
  /** The failure page (`data-failure-url`). */
  failureUrl: string;
  /** `POST` cancel endpoint. */
  cancelUrl: string;
  /** Failed attempts so far in this MFA session. */
  attemptsMade: number;
  /** Attempts allowed before the account locks. */
  maxAttempts: number;
  /** The selection page, when another factor is available ("Try another method"). */
  selectFactorPageUrl?: string | undefined;
  /** An error line (wrong code). */
  error?: string | undefined;
}

/**
 * The challenge page of a generic code factor: `token` (one-time-code autofill) posted by
 * `verifyButton` to the factor's verify URL; nothing is sent, so there is no resend button. A plain
 * form post: the server answers a browser with a redirect to the next page.
 */
export function renderFactorCodeChallengePage(m: FactorCodeChallengePageModel): string {
  const hidden = { csrfToken: m.csrfToken, mfaSessionId: m.mfaSessionId };
  return renderMfaPageShell({
    title: "Enter your code",
    csrfToken: m.csrfToken,
    config: {
      "attempts-made": m.attemptsMade,
      "max-attempts": m.maxAttempts,
      "failure-url": m.failureUrl,
      "mfa-session-id": m.mfaSessionId,
    },
    body: `${noticeHtml("error", m.error)}
<p id="factorInstructions">${escapeHtml(m.instructions ?? `Enter the code your ${m.label.toLowerCase()} shows.`)}</p>
<form id="factorVerifyForm" method="post" action="${escapeHtml(m.verifyUrl)}">
<label for="token">Verification code</label>
<input id="token" name="token" inputmode="${m.inputMode === "text" ? "text" : "numeric"}" autocomplete="one-time-code" maxlength="${m.inputMode === "text" ? 32 : 16}" required autofocus>
${hiddenInputsHtml(hidden)}
<button id="verifyButton" type="submit">Verify</button>
</form>
<p id="factorAttempts">Attempts: ${escapeHtml(String(m.attemptsMade))} of ${escapeHtml(String(m.maxAttempts))}</p>
${tryAnotherMethodHtml(m.selectFactorPageUrl)}
${cancelFormHtml(m.cancelUrl, hidden)}`,
  });
}
