import type { HttpExchange } from "@keyward/core/web";

/**
 * Exchange attribute holding the request's correlation id (also sent as X-Request-Id and
 * X-Correlation-Id); the core reads it under the same name (`correlationIdOf`).
 */
export const CORRELATION_ID_ATTRIBUTE = "correlationId";

/** The correlation id the binding gave this exchange, or undefined outside createHttpApp. */
export { correlationIdOf } from "@keyward/core/web";

/** The matched route's path variables (`/users/{id}` → `{ id }`, decoded; `*` and `**` hold the raw segment and rest). */
export function routeParams(exchange: HttpExchange): Readonly<Record<string, string>> {
  return exchange.match.variables;
}
