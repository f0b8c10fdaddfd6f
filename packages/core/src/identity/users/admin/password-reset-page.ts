import { escapeHtml } from "../../../web/html-escape.js";
import { MAX_NEW_PASSWORD_LENGTH, MIN_NEW_PASSWORD_LENGTH } from "./account-rules.js";

/** What the built-in password-reset page shows; every string is escaped when rendered. */
export interface PasswordResetPageModel {
  /** Where the form posts `token` and `password`. */
  processingUrl: string;
  csrfMeta: string;
  csrfInput: string;
  /** The link's token, carried in a hidden field (the page never spends it). */
  token: string | undefined;
  /** After a refused submission: `invalid` token, or a `weak` password. */
  error: "invalid" | "weak" | undefined;
  /** After a successful reset. */
  done: boolean;
  /** Where to sign in afterwards. */
  loginUrl: string;
}

/** The built-in page a reset link opens: one field for the new password; no script. */
export function renderPasswordResetPage(m: PasswordResetPageModel): string {
  const notice =
    m.error === "invalid"
      ? '<p role="alert" class="error">That reset link is invalid, has expired or was already used. <a href="/forgot-password">Ask for a new one</a>, or ask an administrator.</p>'
      : m.error === "weak"
        ? `<p role="alert" class="error">Choose a password of ${MIN_NEW_PASSWORD_LENGTH} to ${MAX_NEW_PASSWORD_LENGTH} characters.</p>`
        : "";
  const body = m.done
    ? `<p role="status">Your password was changed. <a href="${escapeHtml(m.loginUrl)}">Sign in</a>.</p>`
    : m.token === undefined
      ? '<p role="alert" class="error">Open the link from your message to reset your password.</p>'
      : `<form id="passwordResetForm" method="post" action="${escapeHtml(m.processingUrl)}">
<input type="hidden" name="token" value="${escapeHtml(m.token)}">
<label for="newPassword">New password</label>
<input id="newPassword" name="password" type="password" autocomplete="new-password" minlength="${MIN_NEW_PASSWORD_LENGTH}" maxlength="${MAX_NEW_PASSWORD_LENGTH}" required autofocus>
${m.csrfInput}
<button id="passwordResetButton" type="submit">Set password</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reset your password</title>
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.3rem 0}.error{color:#b00020}</style>
</head><body>
<h1>Reset your password</h1>
${notice}
${body}
</body></html>`;
}
