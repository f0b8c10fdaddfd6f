import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { bearerTokenOf, hasBearerScheme } from "../login/bearer-token.js";
import type { SecurityContextRepository } from "./security-context-repository.js";

/** Verifies a bearer access token (the token service of `.oauth2()`). */
export interface BearerAuthenticator {
  authenticate(accessToken: string): Promise<Authentication>;
}

const BEARER = "platform.bearerAuthenticated";

/** The `request` checkpoint of a chain: the gate, and the requests it never refuses (the chain's logout). */
export interface RequestStatusCheck {
  readonly gate: SubjectStatusGate;
  /** True for a request that is always let through (a blocked user can always sign out). */
  readonly exempt: (exchange: HttpExchange) => boolean;
}

/** True when this request was authenticated by a bearer token (CSRF does not apply to it). */
export function isBearerAuthenticated(exchange: HttpExchange): boolean {
  return exchange.attributes.get(BEARER) === true;
}

/**
 * Loads who is calling: a request with `Authorization: Bearer` is authenticated by its token alone
 * (an invalid or expired token answers 401, never falls back to a cookie); otherwise the chain's
 * repository (the session, on session chains) supplies the authentication, if any. Every request that
 * carries an authentication then passes the `request` checkpoint (when given), whatever the chain and its
 * authorization rules: a refusal (403 ZERO_TRUST_BLOCKED) stops it before any processing filter, page or
 * route runs, except the chain's logout.
 */
export class SecurityContextFilter implements SecurityFilter {
  readonly name = "security-context";

  constructor(
    private readonly repository: SecurityContextRepository,
    private readonly bearer: BearerAuthenticator | undefined,
    private readonly status?: RequestStatusCheck,
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    let authentication: Authentication | undefined;
    if (this.bearer && hasBearerScheme(exchange)) {
      const token = bearerTokenOf(exchange);
      if (!token) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
      authentication = await this.bearer.authenticate(token);
      setCurrentAuthentication(exchange, authentication);
      exchange.attributes.set(BEARER, true);
    } else {
      authentication = await this.repository.load(exchange);
      setCurrentAuthentication(exchange, authentication);
    }
    const status = this.status;
    if (authentication !== undefined && status !== undefined && !status.exempt(exchange)) {
      await status.gate({ checkpoint: "request", authentication, exchange });
    }
    await next();
  }
}
