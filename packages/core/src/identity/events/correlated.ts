import { correlationIdOf } from "../../web/correlation-id.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** `{ correlationId }` of the request when its binding gave it one, else `{}`: spread into an event. */
export function correlated(exchange: Pick<HttpExchange, "attributes">): { correlationId?: string } {
  const correlationId = correlationIdOf(exchange);
  return correlationId === undefined ? {} : { correlationId };
}
