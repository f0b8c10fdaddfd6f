import type { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "./authentication-handlers.js";
import { writeFailureJson } from "./failure-body.js";

/** The part of the token service a success handler needs. */
export interface TokenIssuer {
  issue(authentication: Authentication): Promise<{
    accessToken: string;
    refreshToken: string;
    tokenType: "Bearer";
    expiresIn: number;
    refreshExpiresIn?: number;
  }>;
}

/**
 * OAuth2SingleAuthSuccessHandler: answers JSON `{ success: true, redirectUrl, accessToken,
 * refreshToken, tokenType, expiresIn }`; no session is created.
 */
export class OAuth2SingleAuthSuccessHandler implements AuthenticationSuccessHandler {
  constructor(private readonly tokens: TokenIssuer) {}

  async onSuccess(
    exchange: HttpExchange,
    authentication: Authentication,
    context: LoginContext,
  ): Promise<void> {
    const pair = await this.tokens.issue(authentication);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, {
      success: true,
      redirectUrl: context.defaultSuccessUrl ?? "/",
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      tokenType: pair.tokenType,
      expiresIn: pair.expiresIn,
      ...(pair.refreshExpiresIn === undefined ? {} : { refreshExpiresIn: pair.refreshExpiresIn }),
    });
  }
}

/** OAuth2SingleAuthFailureHandler: always JSON `{ success: false, error, failureType }`. */
export class OAuth2SingleAuthFailureHandler implements AuthenticationFailureHandler {
  async onFailure(exchange: HttpExchange, error: PlatformError): Promise<void> {
    writeFailureJson(exchange, error);
  }
}
