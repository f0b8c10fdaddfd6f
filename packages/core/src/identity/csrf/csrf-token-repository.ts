import type { InjectionToken } from "tsyringe";
import type { HttpExchange } from "../../web/http-exchange.js";

/** Where a request's CSRF token lives (synchronizer-token pattern); the default keeps it in the session. */
export interface CsrfTokenRepository {
  /** The caller's token, or undefined when there is none; never creates a session or a token. */
  load(exchange: HttpExchange): Promise<string | undefined>;
  /** The caller's token, creating what it needs when missing (pages call this when they render it). */
  loadOrCreate(exchange: HttpExchange): Promise<string>;
  /** Replaces the token with a fresh one (called after login, so a token seen before sign-in is dead). */
  rotate(exchange: HttpExchange): Promise<string>;
}

/** DI token of the CSRF token repository the CSRF filter, the login and the pages use. */
export const CsrfTokenRepository: InjectionToken<CsrfTokenRepository> = Symbol.for(
  "platform.CsrfTokenRepository",
);
