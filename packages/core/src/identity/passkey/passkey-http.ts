import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication } from "../authentication/authentication.js";
import type { PasskeyUser } from "./passkey-service.js";

/** Writes a JSON answer that no cache keeps (options carry challenges; lists are per user). */
export function noStoreJson(
  exchange: HttpExchange,
  status: number,
  body: Record<string, unknown> | unknown[],
): void {
  exchange.json(status, body);
  exchange.response.headers.set("cache-control", "no-store");
}

/** The signed-in caller, or PlatformError AUTHENTICATION_REQUIRED. */
export function requireUser(exchange: HttpExchange): PasskeyUser {
  const authentication = currentAuthentication(exchange);
  if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  return { userId: authentication.userId, username: authentication.username };
}
