import type { HttpExchange } from "../../web/http-exchange.js";
import { type ChainRoute, pageRoutes } from "../chain/chain-route.js";
import { csrfHiddenInput, csrfMetaTags } from "../csrf/csrf-html.js";
import { MAX_OTT_TOKEN_LENGTH } from "./ott-endpoint-support.js";
import { renderOttSubmitPage } from "./ott-submit-page.js";

/** Options of the OttSubmitPage. */
export interface OttSubmitPageOptions {
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
export class OttSubmitPage {
  constructor(private readonly options: OttSubmitPageOptions) {}

  /** `GET <url>` and `HEAD <url>`. */
  routes(): ChainRoute[] {
    return pageRoutes({
      path: this.options.url,
      name: "identity.ott.submit-page",
      description: "The built-in one-time-token page (request a link, or sign in with one)",
      feature: "identity.ott",
      access: "public",
      handler: (exchange) => this.handle(exchange),
    });
  }

  /** Renders the page. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
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
