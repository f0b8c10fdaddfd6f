import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, AUTHENTICATION_ATTRIBUTE } from "../authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { BEARER_SCHEME, BEARER_TOKEN } from "../login/bearer-token.js";
import {
  type AccountStanding,
  STANDING_DOES_NOT_HOLD,
  STANDING_HOLDS,
} from "../users/standing/account-standing.js";
import type { SecurityContextRepository } from "./security-context-repository.js";

/** Verifies a bearer access token (the token service of `.oauth2()`). */
export interface BearerAuthenticator {
  authenticate(accessToken: string): Promise<Authentication>;
}

/** The exchange attribute that is `true` on a request a bearer token authenticated (isBearerAuthenticated). */
export const BEARER_AUTHENTICATED_ATTRIBUTE = "platform.bearerAuthenticated";
const BEARER = BEARER_AUTHENTICATED_ATTRIBUTE;

/** Options of the SecurityContextFilter. */
export interface SecurityContextFilterOptions {
  /** Whether the loaded sign-in still stands; a session that does not is ended, a token refused. */
  readonly standing?: AccountStanding;
}

/** True when this request was authenticated by a bearer token (CSRF does not apply to it). */
export function isBearerAuthenticated(exchange: HttpExchange): boolean {
  return exchange.attributes.get(BEARER) === true;
}

/**
 * Loads who is calling: a request with `Authorization: Bearer` is authenticated by its token alone
 * (an invalid or expired token answers 401, never falls back to a cookie); otherwise the chain's
 * repository (the session, on session chains) supplies the authentication, if any. A sign-in whose
 * account no longer stands (disabled, deleted, password or authorities changed since) is refused: its
 * token answers 401 INVALID_TOKEN, its session is ended and the request goes on as anonymous. The
 * `request` checkpoint comes right after this filter (the chain's RequestCheckpoint, the pipeline's
 * `zero-trust-checkpoint` place), before any processing filter, page or route.
 */
export class SecurityContextFilter implements SecurityFilter {
  readonly name = "security-context";

  constructor(
    private readonly repository: SecurityContextRepository,
    private readonly bearer: BearerAuthenticator | undefined,
    private readonly options: SecurityContextFilterOptions = {},
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    let authentication: Authentication | undefined;
    const standing = this.options.standing;
    // hasBearerScheme and bearerTokenOf, inline: one header read, no helper per request.
    const header = exchange.header("authorization");
    if (this.bearer && header !== undefined && BEARER_SCHEME.test(header)) {
      const token = BEARER_TOKEN.exec(header)?.[1];
      if (!token) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
      authentication = await this.bearer.authenticate(token);
      if (standing !== undefined) {
        // A standing answered from memory (a shared settled answer) is read without waiting on it.
        const held = standing.holds(authentication);
        const holds = held === STANDING_HOLDS || (held !== STANDING_DOES_NOT_HOLD && (await held));
        if (!holds) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
      }
      // setCurrentAuthentication, inline (every request).
      exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
      exchange.attributes.set(BEARER, true);
    } else {
      // An answer at hand (the request's session known, or none) is read without waiting on it.
      const loaded = this.repository.load(exchange);
      authentication = isPending(loaded) ? await loaded : loaded;
      if (authentication !== undefined && standing !== undefined) {
        const held = standing.holds(authentication);
        const holds = held === STANDING_HOLDS || (held !== STANDING_DOES_NOT_HOLD && (await held));
        if (!holds) {
          // The account changed standing since this sign-in: the session ends, the caller is anonymous.
          await this.repository.clear(exchange);
          authentication = undefined;
        }
      }
      if (authentication !== undefined) exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
      else exchange.attributes.delete(AUTHENTICATION_ATTRIBUTE);
    }
    await next();
  }
}

/** True for the repository's promise (or any thenable a host's answers), false for an answer at hand. */
function isPending(
  loaded: Authentication | undefined | PromiseLike<Authentication | undefined>,
): loaded is PromiseLike<Authentication | undefined> {
  return typeof (loaded as PromiseLike<unknown> | undefined)?.then === "function";
}
