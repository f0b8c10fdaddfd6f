import type { HttpExchange } from "@keyward/core/web";

/** Exchange attribute holding the request's correlation id (also sent as X-Correlation-Id). */
export const CORRELATION_ID_ATTRIBUTE = "correlationId";

/** The correlation id the binding gave this exchange, or undefined outside createHttpApp. */
export function correlationIdOf(exchange: HttpExchange): string | undefined {
  const value = exchange.attributes.get(CORRELATION_ID_ATTRIBUTE);
  return typeof value === "string" ? value : undefined;
}

/** The matched route's path variables (`/users/{id}` → `{ id }`, decoded; `*` and `**` hold the raw segment and rest). */
export function routeParams(exchange: HttpExchange): Readonly<Record<string, string>> {
  return exchange.match.variables;
}
