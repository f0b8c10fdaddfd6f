import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { bearerTokenOf, hasBearerScheme } from "../login/bearer-token.js";
import type { SecurityContextRepository } from "./security-context-repository.js";

/** Verifies a bearer access token (the token service of `.oauth2()`). */
export interface BearerAuthenticator {
  authenticate(accessToken: string): Promise<Authentication>;
}

const BEARER = "platform.bearerAuthenticated";

/** True when this request was authenticated by a bearer token (CSRF does not apply to it). */
export function isBearerAuthenticated(exchange: HttpExchange): boolean {
  return exchange.attributes.get(BEARER) === true;
}

/**
 * Loads who is calling: a request with `Authorization: Bearer` is authenticated by its token alone
 * (an invalid or expired token answers 401, never falls back to a cookie); otherwise the chain's
 * repository (the session, on session chains) supplies the authentication, if any.
 */
export class SecurityContextFilter implements SecurityFilter {
  readonly name = "security-context";

  constructor(
    private readonly repository: SecurityContextRepository,
    private readonly bearer: BearerAuthenticator | undefined,
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (this.bearer && hasBearerScheme(exchange)) {
      const token = bearerTokenOf(exchange);
      if (!token) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
      setCurrentAuthentication(exchange, await this.bearer.authenticate(token));
      exchange.attributes.set(BEARER, true);
    } else {
      setCurrentAuthentication(exchange, await this.repository.load(exchange));
    }
    await next();
  }
}
