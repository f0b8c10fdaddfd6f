import type { HttpExchange } from "../../web/http-exchange.js";
import { orMatcher, type RequestMatcher } from "../../web/request-matcher.js";
import { BEARER_AUTHENTICATED_ATTRIBUTE } from "../context/security-context-filter.js";
import { CsrfFilter } from "../csrf/csrf-filter.js";
import type { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import type { NextFilter, SecurityFilter } from "./security-filter.js";

/**
 * CSRF for session chains, skipped for requests authenticated by a bearer token: a browser never
 * attaches an Authorization header on its own, so such a request cannot be forged cross-site.
 */
export class BearerAwareCsrfFilter implements SecurityFilter {
  readonly name = "csrf";
  private readonly inner: CsrfFilter;

  constructor(repository: CsrfTokenRepository, ignoring: RequestMatcher[]) {
    this.inner = new CsrfFilter({
      repository,
      ignoring:
        ignoring.length === 0 ? undefined : ignoring.length === 1 ? ignoring[0] : orMatcher(...ignoring),
    });
  }

  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    // isBearerAuthenticated, inline (every request on a session chain runs this).
    return exchange.attributes.get(BEARER_AUTHENTICATED_ATTRIBUTE) === true
      ? next()
      : this.inner.filter(exchange, next);
  }
}
