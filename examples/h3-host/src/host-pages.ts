import { type RouteRegistry, staticAssetsRoute } from "@keyward/adapters-http";
import { currentAuthentication, csrfHiddenInput, csrfMetaTags } from "@keyward/core";
import type { HttpExchange } from "@keyward/core/web";
import { fileURLToPath } from "node:url";

/** The folder of the pages' own scripts, served at `/host/`. */
const PUBLIC_DIR = fileURLToPath(new URL("../public/", import.meta.url));

/** Escapes text for HTML (a username may hold `<`). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The home page: who is signed in, sign-out (a form with the CSRF field), and a button whose script
 * fetches `/account/settings` through the browser SDK's step-up interceptor. The scripts are files
 * (`/js/platform-mfa-sdk.js` from the platform, `/host/home.js` from `public/`): the platform's CSP
 * allows no inline script.
 */
async function homePage(ex: HttpExchange): Promise<void> {
  const who = currentAuthentication(ex);
  const account = who
    ? `<p id="who">Signed in as ${escapeHtml(who.username)}</p>
<button id="settingsButton" type="button">Show my account settings</button>
<pre id="settingsResult"></pre>
<form method="post" action="/logout">${await csrfHiddenInput(ex)}<button>Sign out</button></form>`
    : `<p id="who">Not signed in. <a href="/login">Sign in</a></p>`;
  ex.html(
    200,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example host</title>
${await csrfMetaTags(ex)}
<script src="/js/platform-mfa-sdk.js" defer></script>
<script src="/host/home.js" defer></script>
</head><body><h1>Example host</h1>${account}<p><a href="/reports">Reports</a> (administrators)</p></body></html>`,
  );
}

/** What the reports page and API show (allowed by the policy "Reports: administrators"). */
function report(ex: HttpExchange) {
  return { report: "quarterly", readBy: currentAuthentication(ex)?.username ?? null };
}

/** The service's routes: its pages, its scripts, a step-up resource and the reports. */
export function addHostRoutes(routes: RouteRegistry): void {
  routes.add({ method: "GET", path: "/", name: "host.home", description: "Home page", handler: homePage });
  routes.add(staticAssetsRoute({ prefix: "/host", directory: PUBLIC_DIR }));
  routes.add({
    method: "GET",
    path: "/account/settings",
    name: "host.account-settings",
    description: "The caller's account settings (a second factor in the last 5 minutes)",
    handler: (ex) => {
      const who = currentAuthentication(ex);
      return { username: who?.username ?? null, factors: who?.factors.map((f) => f.type) ?? [] };
    },
  });
  routes.add({
    method: "GET",
    path: "/reports",
    name: "host.reports-page",
    description: "The reports page (policy 'Reports: administrators')",
    handler: (ex) => ex.html(200, `<!doctype html><title>Reports</title><h1 id="reports">Reports</h1>`),
  });
  routes.add({
    method: "GET",
    path: "/api/reports",
    name: "host.reports",
    description: "The reports (policy 'Reports: administrators')",
    handler: report,
  });
}
