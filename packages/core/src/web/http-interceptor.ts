import type { HttpExchange } from "./http-exchange.js";

/**
 * Wraps a request around the application route. It may answer (commit the exchange) without calling
 * `next`, in which case the route does not run, or call `next` and act after it (save state,
 * translate errors the route threw). createHttpApp runs a host's interceptors as request pipeline
 * steps just before the route; the FilterChainProxy is one too, for a binding of a host's own.
 */
export interface HttpInterceptor {
  intercept(exchange: HttpExchange, next: () => Promise<void>): Promise<void>;
}
