import type { HttpExchange } from "../../web/http-exchange.js";
import { hasControlCharacter } from "../chain/request-firewall.js";

/**
 * True for a same-origin relative path (`/x`), refusing `//host`, `/\host`, schemes and control
 * characters, so a saved request or a `redirectUrl` can never send a user to another site.
 */
export function isLocalPath(url: unknown): url is string {
  return (
    typeof url === "string" &&
    url.startsWith("/") &&
    !url.startsWith("//") &&
    !url.startsWith("/\\") &&
    !url.includes("\\") &&
    !hasControlCharacter(url) &&
    url.length <= 2048
  );
}

const SAVED_REQUEST = "platform.savedRequest";

/** Where the user wanted to go before the login page (kept in the session by the entry point). */
export function savedRequestKey(): string {
  return SAVED_REQUEST;
}

/** The local URL the request asked for (path and query), for the saved-request redirect. */
export function requestedUrl(exchange: HttpExchange): string {
  const q = exchange.query.toString();
  return q ? `${exchange.path}?${q}` : exchange.path;
}
