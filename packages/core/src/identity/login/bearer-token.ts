import type { HttpExchange } from "../../web/http-exchange.js";

/**
 * An `Authorization` value of the Bearer scheme, well-formed or not (hasBearerScheme). Internal to
 * identity: the security-context filter tests the header with it inline.
 */
export const BEARER_SCHEME = /^Bearer\b/i;
/** A well-formed `Bearer <token>` value; group 1 is the token (bearerTokenOf). Internal to identity. */
export const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerTokenOf(exchange: HttpExchange): string | undefined {
  const header = exchange.header("authorization");
  if (!header) return undefined;
  const m = BEARER_TOKEN.exec(header);
  return m ? m[1] : undefined;
}

/** True when the request carries an Authorization header of the Bearer scheme (well-formed or not). */
export function hasBearerScheme(exchange: HttpExchange): boolean {
  return BEARER_SCHEME.test(exchange.header("authorization") ?? "");
}
