import type { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "./authentication-handlers.js";
import { writeFailureJson } from "./failure-body.js";
import { isLocalPath } from "./redirect-target.js";

/** Reads (and forgets) the URL an unauthenticated user asked for before being sent to log in. */
export type SavedRequestReader = (exchange: HttpExchange) => Promise<string | undefined>;

/**
 * The default success handler of session chains ("framework default"): JSON clients get
 * `{ success: true, redirectUrl }`; browsers are redirected to the saved request, else the
 * default success URL (always, when `alwaysUse` is set), else `/`.
 */
export class SessionAuthenticationSuccessHandler implements AuthenticationSuccessHandler {
  constructor(private readonly takeSavedRequest: SavedRequestReader) {}

  async onSuccess(
    exchange: HttpExchange,
    _authentication: Authentication,
    context: LoginContext,
  ): Promise<void> {
    const saved = await this.takeSavedRequest(exchange);
    const target =
      context.alwaysUseDefaultSuccessUrl && context.defaultSuccessUrl
        ? context.defaultSuccessUrl
        : isLocalPath(saved)
          ? saved
          : (context.defaultSuccessUrl ?? "/");
    if (exchange.wantsJson()) exchange.json(200, { success: true, redirectUrl: target });
    else exchange.redirect(target);
  }
}

/**
 * The default failure handler of session chains: JSON clients get `{ success: false, error,
 * failureType }` with the code's status; browsers are redirected to the failure URL, else
 * `<loginPage>?error`.
 */
export class SessionAuthenticationFailureHandler implements AuthenticationFailureHandler {
  async onFailure(exchange: HttpExchange, error: PlatformError, context: LoginContext): Promise<void> {
    if (exchange.wantsJson()) writeFailureJson(exchange, error);
    else exchange.redirect(context.failureUrl ?? `${context.loginPage}?error`);
  }
}
