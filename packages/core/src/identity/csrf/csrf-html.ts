import type { HttpExchange } from "../../web/http-exchange.js";
import { csrfToken } from "./csrf-token.js";

/**
 * `<meta name="_csrf" content="…">` and `<meta name="_csrf_header" content="X-CSRF-TOKEN">` for a
 * page's `<head>`, escaped; the page's scripts send the token in that header. Empty when the
 * request's chain has no CSRF protection. Creates the session and token when there is none yet.
 */
export async function csrfMetaTags(exchange: HttpExchange): Promise<string> {
  const token = csrfToken(exchange);
  if (!token) return "";
  const value = await token.value();
  return (
    `<meta name="_csrf" content="${escapeHtml(value)}">\n` +
    `<meta name="_csrf_header" content="${escapeHtml(token.headerName)}">`
  );
}

/**
 * `<input type="hidden" name="_csrf" value="…">` for a form, escaped. Empty when the request's chain
 * has no CSRF protection. Creates the session and token when there is none yet.
 */
export async function csrfHiddenInput(exchange: HttpExchange): Promise<string> {
  const token = csrfToken(exchange);
  if (!token) return "";
  const value = await token.value();
  return `<input type="hidden" name="${escapeHtml(token.parameterName)}" value="${escapeHtml(value)}">`;
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
