import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RequestMatcher } from "../../web/request-matcher.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { constantTimeEquals } from "./constant-time-equals.js";
import type { CsrfTokenRepository } from "./csrf-token-repository.js";
import { type CsrfToken, setCsrfToken } from "./csrf-token.js";

/** Methods that must not change state, so they pass without a token. */
export const CSRF_SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** Options of the CsrfFilter. */
export interface CsrfFilterOptions {
  /** Where the session's token lives. */
  repository: CsrfTokenRepository;
  /** Request header carrying the token (default `X-CSRF-TOKEN`); it wins over the body field. */
  headerName?: string;
  /** Body field (urlencoded form or JSON) carrying the token (default `_csrf`). */
  parameterName?: string;
  /** Requests exempt from the check (e.g. a webhook); none by default. */
  ignoring?: RequestMatcher;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Synchronizer-token CSRF protection for session chains. Safe methods pass; every other request must
 * present the session's token in the header or the body field, compared in constant time. A request
 * without a session, without a token, with an unreadable body or a wrong token fails with
 * CSRF_TOKEN_INVALID (403) before the rest of the chain runs, and creates no session. Every request gets
 * a lazy `csrfToken(exchange)` for its pages. The query string is never read: tokens in URLs leak
 * through logs and Referer.
 */
export class CsrfFilter implements SecurityFilter {
  readonly name = "csrf";
  private readonly repository: CsrfTokenRepository;
  private readonly headerName: string;
  private readonly parameterName: string;
  private readonly ignoring: RequestMatcher | undefined;

  constructor(options: CsrfFilterOptions) {
    this.repository = options.repository;
    this.headerName = options.headerName ?? "X-CSRF-TOKEN";
    this.parameterName = options.parameterName ?? "_csrf";
    this.ignoring = options.ignoring;
    if (!HEADER_NAME.test(this.headerName)) {
      throw new PlatformError("CONFIGURATION_INVALID", "CSRF header name must be an HTTP header name", {
        details: { headerName: this.headerName },
      });
    }
    if (this.parameterName.length === 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "CSRF parameter name must not be empty");
    }
  }

  /**
   * Puts the request's token on the exchange; a safe method (or an ignored request) goes straight on,
   * any other must present the expected token (`verify`). Not an async function: a GET costs no frame.
   */
  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const token: RequestCsrfToken = {
      headerName: this.headerName,
      parameterName: this.parameterName,
      // One shared function, called as the token's method: no closure or bound function per request.
      value: loadOrCreateToken,
      repository: this.repository,
      exchange,
    };
    setCsrfToken(exchange, token);
    if (CSRF_SAFE_METHODS.has(exchange.method) || this.ignoring?.matches(exchange)) return next();
    return this.verify(exchange, next);
  }

  /** An unsafe request: its token must equal the expected one (constant time), else 403. */
  private async verify(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const expected = await this.repository.load(exchange);
    const presented = expected === undefined ? undefined : await this.presented(exchange);
    if (expected === undefined || presented === undefined || !constantTimeEquals(presented, expected)) {
      throw new PlatformError("CSRF_TOKEN_INVALID", "Invalid or missing CSRF token");
    }
    await next();
  }

  /** The token the request carries: the header when present, else the body field; undefined if neither. */
  private async presented(exchange: HttpExchange): Promise<string | undefined> {
    const header = exchange.header(this.headerName);
    if (header !== undefined && header.length > 0) return header;
    let fields: Record<string, unknown>;
    try {
      fields = await exchange.fields();
    } catch {
      // An unparseable or unsupported body carries no token we can read: a 403 below, not a 4xx/500 here.
      return undefined;
    }
    const value = Object.hasOwn(fields, this.parameterName) ? fields[this.parameterName] : undefined;
    return typeof value === "string" && value.length > 0 ? value : undefined;
  }
}

/** The token a request's pages see, with what its `value()` reads. */
interface RequestCsrfToken extends CsrfToken {
  readonly repository: CsrfTokenRepository;
  readonly exchange: HttpExchange;
}

/** The request's token, created (with the session) on first call: CsrfToken.value, called as its method. */
function loadOrCreateToken(this: RequestCsrfToken): Promise<string> {
  return this.repository.loadOrCreate(this.exchange);
}
