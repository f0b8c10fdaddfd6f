import { escapeHtml } from "../../web/html-escape.js";

/** What the built-in OTT page shows. Every string is escaped when rendered. */
export interface OttSubmitPageModel {
  /** Where the sign-in form posts `username` and `token`. */
  processingUrl: string;
  /** Where the "request a link" form posts `username`. */
  generateUrl: string;
  /** CSRF meta tags for the head ('' without CSRF). */
  csrfMeta: string;
  /** The CSRF hidden input for both forms ('' without CSRF). */
  csrfInput: string;
  /** The token of the magic link, pre-filled into the sign-in form. */
  token: string | undefined;
  /** After a generation request (`?sent`). */
  sent: boolean;
  /** After a failed sign-in (`?error`). */
  error: boolean;
}

/**
 * The built-in one-time-token page: a sign-in form (`token`, optional `username`) and a "request a
 * link" form. Without script (the CSP allows none inline): the user presses the button, so a mail
 * scanner that opens the link signs nobody in.
 */
export function renderOttSubmitPage(m: OttSubmitPageModel): string {
  const notice = m.error
    ? '<p role="alert" class="error">That sign-in link is invalid or has expired, or there were too many attempts. Request a new link below.</p>'
    : m.sent
      ? '<p role="status">If the account exists, a sign-in link has been sent. Open it, or paste the code below.</p>'
      : "";
  const prefilled = m.token !== undefined;
  const hint = prefilled ? '<p id="ottLinkHint">Press <strong>Sign in</strong> to continue.</p>' : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in with a link</title>
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.3rem 0}.error{color:#b00020}hr{margin:2rem 0}</style>
</head><body>
<h1>Sign in with a link</h1>
${notice}
${hint}
<form id="ottLoginForm" method="post" action="${escapeHtml(m.processingUrl)}">
<label for="ottToken">Sign-in code</label>
<input id="ottToken" name="token" autocomplete="one-time-code" maxlength="512" required${prefilled ? ` value="${escapeHtml(m.token ?? "")}"` : " autofocus"}>
<label for="ottUsername">Username (optional)</label>
<input id="ottUsername" name="username" autocomplete="username" maxlength="256">
${m.csrfInput}
<button id="ottSignInButton" type="submit"${prefilled ? " autofocus" : ""}>Sign in</button>
</form>
<hr>
<h2>Request a sign-in link</h2>
<form id="ottGenerateForm" method="post" action="${escapeHtml(m.generateUrl)}">
<label for="ottGenerateUsername">Username</label>
<input id="ottGenerateUsername" name="username" autocomplete="username" maxlength="256" required>
${m.csrfInput}
<button id="ottGenerateButton" type="submit">Send me a sign-in link</button>
</form>
</body></html>`;
}
