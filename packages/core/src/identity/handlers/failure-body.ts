import type { PlatformError } from "../../kernel/platform-error.js";
import { failureTypeOf } from "../authentication/failure-type.js";
import { errorCatalogOf } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/**
 * Writes the failure answer every sign-in method shares, `{ success: false, error, failureType }` plus
 * `code`, with the code's status.
 */
export function writeFailureJson(exchange: HttpExchange, error: PlatformError): void {
  const status = errorCatalogOf(exchange).statusOfError(error);
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === "number")
    exchange.response.headers.set("retry-after", String(Math.ceil(retryAfter)));
  exchange.json(status, {
    success: false,
    error: error.message,
    failureType: failureTypeOf(error),
    code: error.code,
  });
}
