import type { HttpExchange } from "../../web/http-exchange.js";

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerTokenOf(exchange: HttpExchange): string | undefined {
  const header = exchange.header("authorization");
  if (!header) return undefined;
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return m ? m[1] : undefined;
}

/** True when the request carries an Authorization header of the Bearer scheme (well-formed or not). */
export function hasBearerScheme(exchange: HttpExchange): boolean {
  return /^Bearer\b/i.test(exchange.header("authorization") ?? "");
}
