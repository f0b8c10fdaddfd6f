import { type Authentication, csrfHiddenInput, csrfMetaTags } from "@keyward/core";
import { type HttpExchange, PAGE_SCRIPT_PATHS } from "@keyward/core/web";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The demo's home page: who is signed in, and how. */
export async function homePage(exchange: HttpExchange, who: Authentication | undefined): Promise<string> {
  const body = who
    ? `<p id="who">Signed in as <strong>${escapeHtml(who.username)}</strong> (${escapeHtml(who.authorities.join(", "))})
by ${escapeHtml(who.method)} at ${escapeHtml(new Date(who.authenticatedAt).toISOString())}.</p>
<p><a href="/account">Your account</a> (factors, sessions, devices) · <a href="/passkeys">Manage your passkeys</a></p>
<form method="post" action="/logout">${await csrfHiddenInput(exchange)}<button id="logoutButton" type="submit">Sign out</button></form>`
    : `<p id="who">Not signed in. <a href="/login">Sign in with a password</a> (users: user/password,
admin/admin, admin2/admin2), <a href="/login/ott">with a magic link</a> or <a href="/passkeys">with a passkey</a>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Platform demo</title>${await csrfMetaTags(exchange)}</head>
<body>
<h1>Platform demo</h1>
${body}
<p>REST: <code>POST /api/login</code> with JSON <code>{"username","password"}</code> returns tokens; <code>GET /api/me</code> with <code>Authorization: Bearer</code>.</p>
<p>Step-up in place: this page loads the browser SDK; signed in, run <code>PlatformMFA.installInterceptor()</code>
then <code>fetch("/account/security").then((r) => r.json())</code> in the console.</p>
<p><a href="/health">Health</a></p>
<script src="${PAGE_SCRIPT_PATHS.sdk}" defer></script>
</body></html>`;
}
