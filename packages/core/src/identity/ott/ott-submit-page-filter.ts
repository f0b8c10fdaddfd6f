import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { csrfHiddenInput, csrfMetaTags } from "../csrf/csrf-html.js";
import { MAX_OTT_TOKEN_LENGTH } from "./ott-filter-support.js";
import { renderOttSubmitPage } from "./ott-submit-page.js";

/** Options of the OttSubmitPageFilter. */
export interface OttSubmitPageFilterOptions {
  /** `GET <url>` serves the page (default `/login/ott`); the magic link points here. */
  url: string;
  /** Where the page's sign-in form posts. */
  processingUrl: string;
  /** Where the page's "request a link" form posts. */
  generateUrl: string;
  /** Whether the chain checks CSRF: the page then carries the token (meta tags and hidden inputs). */
  csrfEnabled: boolean;
}

/**
 * Serves the built-in OTT page at `GET|HEAD <url>`. `?token=` (the magic link) pre-fills the sign-in
 * form; the page never consumes a token: mail scanners open links, and a sign-in by GET could be
 * triggered cross-site (login CSRF). The answer is not cached and sends no Referer, since its URL may
 * hold a live token. A token longer than the login accepts is not echoed.
 */
export class OttSubmitPageFilter implements SecurityFilter {
  readonly name = "ott-submit-page";

  constructor(private readonly options: OttSubmitPageFilterOptions) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const o = this.options;
    if (exchange.path !== o.url || (exchange.method !== "GET" && exchange.method !== "HEAD")) return next();
    const token = exchange.query.get("token") ?? undefined;
    const page = renderOttSubmitPage({
      processingUrl: o.processingUrl,
      generateUrl: o.generateUrl,
      csrfMeta: o.csrfEnabled ? await csrfMetaTags(exchange) : "",
      csrfInput: o.csrfEnabled ? await csrfHiddenInput(exchange) : "",
      token: token !== undefined && token.length <= MAX_OTT_TOKEN_LENGTH && token !== "" ? token : undefined,
      sent: exchange.query.has("sent"),
      error: exchange.query.has("error"),
    });
    exchange.response.headers.set("cache-control", "no-store");
    exchange.response.headers.set("referrer-policy", "no-referrer");
    exchange.html(200, page);
  }
}
