import type { HttpExchange } from "./http-exchange.js";

/**
 * The exchange attribute an HTTP binding stores the request's correlation id under (adapters-http's
 * `CORRELATION_ID_ATTRIBUTE` has the same value; a host's own binding sets it too).
 */
export const CORRELATION_ID_KEY = "correlationId";

/**
 * The correlation id the binding gave this request (the caller's X-Request-Id, X-Correlation-Id or
 * traceparent trace id when well-formed, else a new one), or undefined outside a binding. The core
 * copies it into the audit events and decision events the request causes.
 */
export function correlationIdOf(exchange: Pick<HttpExchange, "attributes">): string | undefined {
  const value = exchange.attributes.get(CORRELATION_ID_KEY);
  return typeof value === "string" ? value : undefined;
}
