import { escapeHtml } from "../../web/html-escape.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { cancelFormHtml, noticeHtml, tryAnotherMethodHtml } from "./mfa-page-parts.js";
import { MFA_PAGE_SCRIPTS, renderMfaPageShell } from "./mfa-page-shell.js";

/** What the passkey challenge page shows and where its script sends requests. */
export interface PasskeyChallengePageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The caller's MFA session. */
  mfaSessionId: string;
  /** `POST` MFA passkey processing: the form's action. */
  loginProcessingUrl: string;
  /** `POST` assertion options bound to the MFA session. */
  assertionOptionsUrl: string;
  /** The failure page (`data-failure-url`). */
  failureUrl: string;
  /** `POST` cancel endpoint. */
  cancelUrl: string;
  /** The selection page, when another factor is available ("Try another method"). */
  selectFactorPageUrl?: string | undefined;
  /** An error line. */
  error?: string | undefined;
}

/**
 * The passkey challenge page. A passkey needs the browser's credential API, so `authButton` is a
 * script-driven button inside `passkeyForm` (which names the endpoint and carries the hidden inputs);
 * the page says JavaScript is required, and without it the cancel form and "Try another method" still work.
 */
export function renderPasskeyChallengePage(m: PasskeyChallengePageModel): string {
  const hidden = { csrfToken: m.csrfToken, mfaSessionId: m.mfaSessionId };
  return renderMfaPageShell({
    title: "Verify with a passkey",
    csrfToken: m.csrfToken,
    pageScript: MFA_PAGE_SCRIPTS.passkey,
    config: {
      "failure-url": m.failureUrl,
      "mfa-session-id": m.mfaSessionId,
      "assertion-options-url": m.assertionOptionsUrl,
      "login-processing-url": m.loginProcessingUrl,
    },
    body: `${noticeHtml("error", m.error)}
<p id="passkeyInstructions">Use a passkey saved on this device or a security key. Passkeys need JavaScript enabled.</p>
<noscript><p class="error">JavaScript is disabled, so a passkey cannot be used here. Try another method or cancel.</p></noscript>
<form id="passkeyForm" method="post" action="${escapeHtml(m.loginProcessingUrl)}">
${hiddenInputsHtml(hidden)}
<button id="authButton" type="button">Use a passkey</button>
</form>
<p id="passkeyStatus" role="status" aria-live="polite"></p>
${tryAnotherMethodHtml(m.selectFactorPageUrl)}
${cancelFormHtml(m.cancelUrl, hidden)}`,
  });
}
