import type { Client } from "../client.js";
import { markSdkRequest } from "../sdk-request.js";
import type { AuthenticationResult } from "../types.js";

/**
 * The CSRF token after a session step-up, which rotates it (with the session id) like every change of
 * the signed-in authentication: the answer's `csrfToken` when the server sends one, else the
 * `<meta name="_csrf">` of the flow's login page (every page of the MFA page contract carries it).
 * The page's own meta tag is updated, so the application's next requests (and the SDK's) send the
 * live token. Undefined when no token could be read (the old one then stays).
 */
export async function refreshCsrfToken(
  client: Client,
  result: AuthenticationResult | undefined,
): Promise<string | undefined> {
  let token = typeof result?.csrfToken === "string" && result.csrfToken ? result.csrfToken : undefined;
  if (!token) {
    try {
      const config = await client.apiClient.ensureConfig();
      const res = await fetch(
        config.primary.formLoginPage,
        markSdkRequest({ headers: { Accept: "text/html" }, credentials: "same-origin", cache: "no-store" }),
      );
      const html = res.ok ? await res.text() : "";
      const doc = new DOMParser().parseFromString(html, "text/html");
      token = doc.querySelector('meta[name="_csrf"]')?.getAttribute("content") || undefined;
    } catch {
      return undefined;
    }
  }
  if (token) document.querySelector('meta[name="_csrf"]')?.setAttribute("content", token);
  return token;
}
