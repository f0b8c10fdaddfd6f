import type { HttpExchange } from "./http-exchange.js";

/**
 * Wraps every request around the application route; the security runtime (the filter-chain proxy)
 * is one. It may answer (commit the exchange) without calling `next`, in which case the route does
 * not run, or call `next` and act after it (save state, translate errors the route threw).
 */
export interface HttpInterceptor {
  intercept(exchange: HttpExchange, next: () => Promise<void>): Promise<void>;
}
