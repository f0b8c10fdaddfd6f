import { FORGOT_PASSWORD_PAGE_PATH } from "../../identity/users/self-service/forgot-password-endpoint.js";
import { escapeHtml } from "../../web/html-escape.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { noticeHtml } from "./mfa-page-parts.js";
import { MFA_PAGE_SCRIPTS, renderMfaPageShell } from "./mfa-page-shell.js";

/** Where the SDK keeps tokens (`tokenPersistence` of the SDK). */
export type TokenPersistence = "memory" | "localStorage" | "sessionStorage";

/** What the generated primary login page of an MFA flow shows. */
export interface MfaLoginPageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The primary processing URL: the form's action and `data-primary-login-processing`. */
  processingUrl: string;
  /** The factor selection page (`data-select-factor-url`). */
  selectFactorUrl: string;
  /** `data-token-persistence`. */
  tokenPersistence: TokenPersistence;
  /** True when the primary is REST (JSON): then the page needs the SDK and says so. */
  mfaSdkRequired: boolean;
  /** The username to put back after a failed attempt. */
  username?: string | undefined;
  /** An error line (failed sign-in). */
  error?: string | undefined;
  /** A status line (signed out, ...). */
  status?: string | undefined;
  /**
   * The passkey sign-in endpoints when a passkey chain exists: the username field then asks for
   * passkey autofill (`autocomplete="username webauthn"`) and a passkey button is offered.
   */
  passkeyLogin?: PasskeyLoginUrls | undefined;
}

/** Where a page signs in with a passkey (the passkey chain's endpoints). */
export interface PasskeyLoginUrls {
  readonly assertionOptions: string;
  readonly loginProcessing: string;
}

/**
 * The primary login page of an MFA flow: `loginForm` posts `username` and `password` with the
 * hidden-inputs block to the primary processing URL, so a form primary works without script.
 */
export function renderMfaLoginPage(m: MfaLoginPageModel): string {
  const username = m.username === undefined ? "" : ` value="${escapeHtml(m.username)}"`;
  const noscript = m.mfaSdkRequired
    ? '\n<noscript><p class="error">This sign-in needs JavaScript enabled.</p></noscript>'
    : "";
  return renderMfaPageShell({
    title: "Sign in",
    csrfToken: m.csrfToken,
    pageScript: MFA_PAGE_SCRIPTS.login,
    config: {
      "token-persistence": m.tokenPersistence,
      "select-factor-url": m.selectFactorUrl,
      "primary-login-processing": m.processingUrl,
      "mfa-sdk-required": m.mfaSdkRequired,
      ...(m.passkeyLogin
        ? {
            "passkey-options-url": m.passkeyLogin.assertionOptions,
            "passkey-login-url": m.passkeyLogin.loginProcessing,
          }
        : {}),
    },
    body: `${noticeHtml("error", m.error)}${noticeHtml("status", m.status)}${noscript}
<form id="loginForm" method="post" action="${escapeHtml(m.processingUrl)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="${m.passkeyLogin ? "username webauthn" : "username"}" maxlength="256" required${username}${m.username === undefined ? " autofocus" : ""}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${m.username === undefined ? "" : " autofocus"}>
${hiddenInputsHtml({ csrfToken: m.csrfToken })}
<button id="loginButton" type="submit">Sign in</button>${
      m.passkeyLogin ? '\n<button id="passkeySignInButton" type="button">Sign in with a passkey</button>' : ""
    }
</form>
<p><a id="forgotPasswordLink" href="${FORGOT_PASSWORD_PAGE_PATH}">Forgot your password?</a></p>`,
  });
}
