import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication } from "../authentication/authentication.js";
import { type ChainRoute, pageRoutes } from "../chain/chain-route.js";
import { csrfMetaTags } from "../csrf/csrf-html.js";
import { escapeHtml } from "../../web/html-escape.js";

/** What the built-in passkey page shows and where its script sends requests. */
export interface PasskeyPageModel {
  /** CSRF meta tags (`_csrf`, `_csrf_header`); empty on chains without CSRF. */
  csrfMeta: string;
  scriptUrl: string;
  assertionOptionsUrl: string;
  loginProcessingUrl: string;
  registrationOptionsUrl: string;
  registrationUrl: string;
  credentialsUrl: string;
  /** The signed-in user's name, or undefined for an anonymous visitor. */
  username: string | undefined;
}

/**
 * The built-in passkey page: sign in with a passkey (optional username field that also offers
 * autofill), and for a signed-in user register, list and delete passkeys. No inline script (the CSP is
 * `script-src 'self'`): the behaviour is in the page script, configured by `#platform-page-config`.
 */
export function renderPasskeyPage(m: PasskeyPageModel): string {
  const who = m.username
    ? `Signed in as <strong id="passkeyCurrentUser">${escapeHtml(m.username)}</strong>.`
    : "Not signed in.";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Passkeys</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.3rem 0}section{margin:1.5rem 0}#passkeyList li{margin:.5rem 0}#passkeyList button{width:auto;display:inline-block}[data-kind=error]{color:#b00020}</style>
<script src="${escapeHtml(m.scriptUrl)}" defer></script>
</head><body>
<div id="platform-page-config" hidden
 data-assertion-options-url="${escapeHtml(m.assertionOptionsUrl)}"
 data-login-url="${escapeHtml(m.loginProcessingUrl)}"
 data-register-options-url="${escapeHtml(m.registrationOptionsUrl)}"
 data-register-url="${escapeHtml(m.registrationUrl)}"
 data-credentials-url="${escapeHtml(m.credentialsUrl)}"
 data-authenticated="${m.username ? "true" : "false"}"></div>
<h1>Passkeys</h1>
<p id="passkeyWho">${who}</p>
<section id="passkeySignIn"><h2>Sign in with a passkey</h2>
<label for="passkeyUsername">Username (optional)</label>
<input id="passkeyUsername" name="username" autocomplete="username webauthn" autocapitalize="none" spellcheck="false">
<button id="passkeySignInButton" type="button">Sign in with a passkey</button>
</section>
<section id="passkeyManage"><h2>Your passkeys</h2>
<label for="passkeyLabel">Name for a new passkey (optional)</label>
<input id="passkeyLabel" name="label" maxlength="64">
<button id="passkeyRegisterButton" type="button">Register a passkey</button>
<ul id="passkeyList"></ul>
<p>Deleting a passkey removes only that way of signing in; your password still works.</p>
</section>
<p id="passkeyStatus" role="status" aria-live="polite"></p>
</body></html>`;
}

/** Where the page's script and endpoints are. */
export type PasskeyPageUrls = Omit<PasskeyPageModel, "csrfMeta" | "username">;

/** Serves the built-in passkey page at `GET <url>` (default `/passkeys`), to anonymous and signed-in users. */
export class PasskeyPage {
  constructor(
    private readonly url: string,
    private readonly urls: PasskeyPageUrls,
  ) {}

  /** `GET <url>` and `HEAD <url>`. */
  routes(): ChainRoute[] {
    return pageRoutes({
      path: this.url,
      name: "identity.passkey.page",
      description: "The built-in passkey page (sign in, register, list and delete passkeys)",
      feature: "identity.passkey",
      access: "public",
      handler: (exchange) => this.handle(exchange),
    });
  }

  /** Renders the page. */
  async handle(exchange: HttpExchange): Promise<void> {
    const page = renderPasskeyPage({
      ...this.urls,
      csrfMeta: await csrfMetaTags(exchange),
      username: currentAuthentication(exchange)?.username,
    });
    exchange.html(200, page);
    exchange.response.headers.set("cache-control", "no-store");
  }
}
