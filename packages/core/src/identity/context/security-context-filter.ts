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
  /**
   * Optional: `authenticate`, answering the Authentication itself when it can be told without
   * waiting (a token verified before and not revoked), else the promise of the same judgement. When
   * present, the filter calls it instead of `authenticate` (one call per request).
   */
  authenticateOrPending?(accessToken: string): Authentication | Promise<Authentication>;
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

  /**
   * Not an async function: a bearer token vouched for at once (`authenticateOrPending`) and a session's
   * authentication at hand (the request's session known), whose account stands from memory, and a
   * request without a session, go on to `next` without a promise of their own (its answer is handed
   * back as it is, DONE included); anything that must wait goes to `bearerLater` or `sessionLater`. What it throws is answered as a rejection, as an async function.
   */
  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    try {
      // hasBearerScheme and bearerTokenOf, inline: one header read, no helper per request.
      const header = exchange.header("authorization");
      if (this.bearer && header !== undefined && BEARER_SCHEME.test(header)) {
        const token = BEARER_TOKEN.exec(header)?.[1];
        if (!token) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
        const bearer = this.bearer;
        const answered = bearer.authenticateOrPending
          ? bearer.authenticateOrPending(token)
          : bearer.authenticate(token);
        // isPending, inline (every bearer request): any thenable is waited on.
        if (typeof (answered as PromiseLike<unknown>).then === "function")
          return this.bearerLater(exchange, next, answered, undefined);
        const authentication = answered as Authentication;
        const held = this.options.standing?.holds(authentication);
        if (held !== undefined && held !== STANDING_HOLDS)
          return this.bearerLater(exchange, next, authentication, held);
        // setCurrentAuthentication, inline (every request).
        exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
        exchange.attributes.set(BEARER, true);
        return next();
      }
      // An answer at hand (the request's session known, or none) is read without waiting on it.
      const loaded = this.repository.load(exchange);
      // isPending, inline (every request without a bearer token).
      if (typeof (loaded as PromiseLike<unknown> | undefined)?.then === "function")
        return this.sessionLater(exchange, next, loaded, undefined);
      if (loaded === undefined) {
        exchange.attributes.delete(AUTHENTICATION_ATTRIBUTE);
        return next();
      }
      const authentication = loaded as Authentication;
      const held = this.options.standing?.holds(authentication);
      if (held !== undefined && held !== STANDING_HOLDS)
        return this.sessionLater(exchange, next, authentication, held);
      exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
      return next();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * A bearer token's Authentication still to come (`answered` pending), or one whose account's
   * standing (`asked`, when already asked) is not the shared "holds": its standing judged, then on.
   */
  private async bearerLater(
    exchange: HttpExchange,
    next: NextFilter,
    answered: Authentication | PromiseLike<Authentication>,
    asked: Promise<boolean> | undefined,
  ): Promise<void> {
    const authentication = await answered;
    const standing = this.options.standing;
    if (standing !== undefined) {
      // A standing answered from memory (a shared settled answer) is read without waiting on it.
      const held = asked ?? standing.holds(authentication);
      const holds = held === STANDING_HOLDS || (held !== STANDING_DOES_NOT_HOLD && (await held));
      if (!holds) throw new PlatformError("INVALID_TOKEN", "Invalid access token");
    }
    exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
    exchange.attributes.set(BEARER, true);
    await next();
  }

  /**
   * The session's authentication, once loaded (`loaded` pending), or one whose account's standing
   * (`asked`, when already asked) is not the shared "holds": its standing judged (one that fell ends
   * the session), then on.
   */
  private async sessionLater(
    exchange: HttpExchange,
    next: NextFilter,
    loaded: Authentication | undefined | PromiseLike<Authentication | undefined>,
    asked: Promise<boolean> | undefined,
  ): Promise<void> {
    let authentication = isPending(loaded) ? await loaded : loaded;
    const standing = this.options.standing;
    if (authentication !== undefined && standing !== undefined) {
      const held = asked ?? standing.holds(authentication);
      const holds = held === STANDING_HOLDS || (held !== STANDING_DOES_NOT_HOLD && (await held));
      if (!holds) {
        // The account changed standing since this sign-in: the session ends, the caller is anonymous.
        await this.repository.clear(exchange);
        authentication = undefined;
      }
    }
    if (authentication !== undefined) exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
    else exchange.attributes.delete(AUTHENTICATION_ATTRIBUTE);
    await next();
  }
}

/** True for a promise (or any thenable a host's port answers), false for an answer at hand. */
function isPending<T>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as PromiseLike<unknown> | undefined)?.then === "function";
}
