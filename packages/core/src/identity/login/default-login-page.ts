import { escapeHtml } from "../../web/html-escape.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type ChainRoute, pageRoutes } from "../chain/chain-route.js";
import { FORGOT_PASSWORD_PAGE_PATH } from "../users/self-service/forgot-password-endpoint.js";

/** Renders the generated login page's HTML (CSRF meta tags and hidden input supplied by the caller). */
export interface LoginPageModel {
  processingUrl: string;
  usernameParameter: string;
  passwordParameter: string;
  csrfMeta: string;
  csrfInput: string;
  error: boolean;
  loggedOut: boolean;
}

/** The generated login page (used when no loginPage is configured). */
export function renderLoginPage(m: LoginPageModel): string {
  const notice = m.error
    ? '<p role="alert" class="error">Invalid username or password.</p>'
    : m.loggedOut
      ? '<p role="status">You have been signed out.</p>'
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title>
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.3rem 0}.error{color:#b00020}</style>
</head><body>
<h1>Sign in</h1>
${notice}
<form id="loginForm" method="post" action="${escapeHtml(m.processingUrl)}">
<label for="username">Username</label>
<input id="username" name="${escapeHtml(m.usernameParameter)}" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input id="password" name="${escapeHtml(m.passwordParameter)}" type="password" autocomplete="current-password" required>
${m.csrfInput}
<button id="loginButton" type="submit">Sign in</button>
</form>
<p><a id="forgotPasswordLink" href="${FORGOT_PASSWORD_PAGE_PATH}">Forgot your password?</a></p>
</body></html>`;
}

/** Serves the generated login page at `GET <url>` (and HEAD). */
export class DefaultLoginPage {
  constructor(
    private readonly url: string,
    private readonly model: (exchange: HttpExchange) => Promise<Omit<LoginPageModel, "error" | "loggedOut">>,
  ) {}

  /** `GET <url>` and `HEAD <url>`. */
  routes(): ChainRoute[] {
    return pageRoutes({
      path: this.url,
      name: "identity.form.login-page",
      description: "The generated sign-in page",
      feature: "identity.form",
      access: "public",
      handler: (exchange) => this.handle(exchange),
    });
  }

  /** Renders the page (with `?error` or `?logout` notices). */
  async handle(exchange: HttpExchange): Promise<void> {
    const base = await this.model(exchange);
    exchange.html(
      200,
      renderLoginPage({
        ...base,
        error: exchange.query.has("error"),
        loggedOut: exchange.query.has("logout"),
      }),
    );
  }
}
