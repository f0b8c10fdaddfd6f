import { escapeHtml } from "../../web/html-escape.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { cancelFormHtml, noticeHtml, tryAnotherMethodHtml } from "./mfa-page-parts.js";
import { MFA_PAGE_SCRIPTS, renderMfaPageShell } from "./mfa-page-shell.js";

/** What the OTT request-code page shows. */
export interface OttRequestCodePageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The caller's MFA session. */
  mfaSessionId: string;
  /** `POST` generate-code endpoint: the form's action and `data-ott-request-url`. */
  generateCodeUrl: string;
  /** `POST` cancel endpoint. */
  cancelUrl: string;
  /** Where the code goes, already masked (`a•••@example.com`). */
  destination: string;
  /** Digits of the code. */
  codeLength: number;
  /** The selection page, when another factor is available ("Try another method"). */
  selectFactorPageUrl?: string | undefined;
  /** An error line. */
  error?: string | undefined;
}

/** The OTT request-code page: says where the code goes; `sendCodeButton` posts to generate-code. */
export function renderOttRequestCodePage(m: OttRequestCodePageModel): string {
  const hidden = { csrfToken: m.csrfToken, mfaSessionId: m.mfaSessionId };
  return renderMfaPageShell({
    title: "Get a verification code",
    csrfToken: m.csrfToken,
    pageScript: MFA_PAGE_SCRIPTS.ottRequest,
    config: { "mfa-session-id": m.mfaSessionId, "ott-request-url": m.generateCodeUrl },
    body: `${noticeHtml("error", m.error)}
<p id="ottDestination">We will send a ${escapeHtml(String(m.codeLength))}-digit code to <strong>${escapeHtml(m.destination)}</strong>.</p>
<form id="ottRequestForm" method="post" action="${escapeHtml(m.generateCodeUrl)}">
${hiddenInputsHtml(hidden)}
<button id="sendCodeButton" type="submit">Send code</button>
</form>
${tryAnotherMethodHtml(m.selectFactorPageUrl)}
${cancelFormHtml(m.cancelUrl, hidden)}`,
  });
}
