import { isPlatformError } from "../../kernel/platform-error.js";
import { errorResponse } from "../../web/error-response.js";
import { errorCatalogOf } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { requestedUrl } from "../handlers/redirect-target.js";
import { hasBearerScheme } from "../login/bearer-token.js";
import { challengeAnswerOf } from "./challenge-answer.js";
import type { SecurityErrorHandling } from "./security-error-handling.js";
import { DONE } from "../../web/request-pipeline.js";

/** Options of the exception translation filter of one chain. */
export interface ExceptionTranslationOptions {
  handling: SecurityErrorHandling;
  /** The chain's login page: browsers that must sign in are sent there (session chains with a page). */
  loginPage: string | undefined;
  /** Remembers where a browser wanted to go before the login page. */
  saveRequest: ((exchange: HttpExchange, url: string) => Promise<void>) | undefined;
  /** Remembers, for the signed-in user, where a browser sent to a step-up's challenge wanted to go. */
  saveStepUpReturn?: ((exchange: HttpExchange, url: string) => Promise<void>) | undefined;
  /** Bearer chains add `WWW-Authenticate: Bearer` to 401 answers. */
  bearer: boolean;
  /** The platform's ErrorTranslator family (`errorTranslation`): a database outage becomes its 503 here. */
  translate?: (error: unknown) => unknown;
}

/**
 * Turns security errors thrown by later filters, authorization or the route into answers: first the
 * chain's ASEP handlers, then the defaults (a browser needing to sign in is redirected to the login
 * page; everyone else gets the JSON error body with its stable code). An error the ErrorTranslator
 * family claims (a database outage) is answered as its translation; other errors pass through to the
 * binding, which answers a generic 500.
 */
export class ExceptionTranslationFilter implements SecurityFilter {
  readonly name = "exception-translation";

  constructor(private readonly options: ExceptionTranslationOptions) {}

  /**
   * Runs the rest of the chain; what it throws is answered by `translate`. Not an async function: a
   * request that throws nothing costs one `then`, no async frame, and none when the rest finished at
   * once (DONE: nothing is left that could throw).
   */
  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    let pending: Promise<void>;
    try {
      pending = next();
    } catch (thrown) {
      return this.translate(thrown, exchange);
    }
    if (pending === DONE) return DONE;
    return pending.then(undefined, (thrown: unknown) => this.translate(thrown, exchange));
  }

  /** The answer to an error the rest of the chain threw (or the error again, when it is not ours). */
  private async translate(thrown: unknown, exchange: HttpExchange): Promise<void> {
    const error = this.options.translate ? this.options.translate(thrown) : thrown;
    if (!isPlatformError(error)) throw thrown;
    exchange.response.committed = false;
    if (await this.options.handling.handle(error, exchange)) return;
    const { loginPage, saveRequest, bearer } = this.options;
    if (
      error.code === "AUTHENTICATION_REQUIRED" &&
      loginPage &&
      !exchange.wantsJson() &&
      exchange.method === "GET"
    ) {
      await saveRequest?.(exchange, requestedUrl(exchange));
      exchange.redirect(loginPage);
      return;
    }
    // A browser page navigation goes to the challenge; a bearer (API) caller always gets the 401.
    const challenge = challengeAnswerOf(error);
    if (
      challenge?.browserRedirect !== undefined &&
      !exchange.wantsJson() &&
      exchange.method === "GET" &&
      !bearer &&
      !hasBearerScheme(exchange)
    ) {
      // Where the browser wanted to go: the step-up's completion sends this user back there.
      await this.options.saveStepUpReturn?.(exchange, requestedUrl(exchange));
      exchange.redirect(challenge.browserRedirect);
      return;
    }
    const answer = errorResponse(error, "", errorCatalogOf(exchange));
    if (answer.unexpected) throw error;
    if (answer.status === 401 && (bearer || hasBearerScheme(exchange))) {
      const kind =
        error.code === "AUTHENTICATION_REQUIRED"
          ? ""
          : ` error="${challenge?.bearerError ?? "invalid_token"}"`;
      exchange.response.headers.set("www-authenticate", `Bearer${kind}`);
    }
    exchange.json(answer.status, answer.body);
  }
}
