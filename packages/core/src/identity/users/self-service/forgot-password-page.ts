import { escapeHtml } from "../../../web/html-escape.js";

/** What the "forgot password" page shows; every string is escaped when rendered. */
export interface ForgotPasswordPageModel {
  /** Where the form posts `username`. */
  processingUrl: string;
  csrfMeta: string;
  csrfInput: string;
  /** `sent` after any accepted name (known or not), `invalid` after a missing or overlong one. */
  outcome: "ask" | "sent" | "invalid";
  /** Where to sign in. */
  loginUrl: string;
}

/** The built-in page where a user who forgot their password asks for a reset link; no script. */
export function renderForgotPasswordPage(m: ForgotPasswordPageModel): string {
  const body =
    m.outcome === "sent"
      ? `<p role="status">If the account has a verified e-mail address, a reset link is on its way. It works once, for 30 minutes. <a href="${escapeHtml(m.loginUrl)}">Sign in</a>.</p>`
      : `${m.outcome === "invalid" ? '<p role="alert" class="error">Enter your username.</p>' : ""}
<form id="forgotPasswordForm" method="post" action="${escapeHtml(m.processingUrl)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" maxlength="256" required autofocus>
${m.csrfInput}
<button id="forgotPasswordButton" type="submit">Send me a reset link</button>
</form>
<p><a href="${escapeHtml(m.loginUrl)}">Back to sign in</a></p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Forgot your password?</title>
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.3rem 0}.error{color:#b00020}</style>
</head><body>
<h1>Forgot your password?</h1>
${body}
</body></html>`;
}
