import type { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";

/** What a login filter tells its handlers about the chain it runs in. */
export interface LoginContext {
  chainId: string;
  /** The login page of the chain (for `?error`, `?logout` redirects). */
  loginPage: string;
  defaultSuccessUrl: string | undefined;
  alwaysUseDefaultSuccessUrl: boolean;
  failureUrl: string | undefined;
}

/** Answers a successful primary authentication; the DSL's `successHandler(...)` takes one. */
export interface AuthenticationSuccessHandler {
  onSuccess(exchange: HttpExchange, authentication: Authentication, context: LoginContext): Promise<void>;
}

/** Answers a failed authentication; the DSL's `failureHandler(...)` takes one. */
export interface AuthenticationFailureHandler {
  onFailure(exchange: HttpExchange, error: PlatformError, context: LoginContext): Promise<void>;
}
