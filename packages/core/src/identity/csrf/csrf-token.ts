import type { HttpExchange } from "../../web/http-exchange.js";

/** The CSRF token of a request as pages see it: where to send it, and its value on demand. */
export interface CsrfToken {
  /** Header a script sends the token in (default `X-CSRF-TOKEN`). */
  readonly headerName: string;
  /** Form field a page posts the token in (default `_csrf`). */
  readonly parameterName: string;
  /** The session's token, created (with the session) on first call: pages that never ask cost nothing. */
  value(): Promise<string>;
}

const CSRF_ATTRIBUTE = "platform.csrf";

/** The CSRF token of this request, or undefined when its chain has no CSRF protection (bearer chains). */
export function csrfToken(exchange: HttpExchange): CsrfToken | undefined {
  return exchange.attributes.get(CSRF_ATTRIBUTE) as CsrfToken | undefined;
}

/** Makes a CSRF token available to this request's pages (the CsrfFilter does this). */
export function setCsrfToken(exchange: HttpExchange, token: CsrfToken): void {
  exchange.attributes.set(CSRF_ATTRIBUTE, token);
}
