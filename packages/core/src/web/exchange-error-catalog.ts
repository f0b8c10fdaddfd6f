import { createErrorCatalog, type ErrorCatalog } from "../kernel/error-catalog.js";
import { KERNEL_ERROR_CODES } from "../kernel/kernel-error-codes.js";
import { isPlatformError, type PlatformError } from "../kernel/platform-error.js";
import type { HttpExchange } from "./http-exchange.js";
import { WEB_ERROR_CODES } from "./web-error-codes.js";

/**
 * Exchange attribute holding the ErrorCatalog of the platform serving the request (set from
 * `HttpRequestInit.errors` when the exchange is made, or by attachErrorCatalog). Internal to the web model.
 */
export const ERROR_CATALOG_ATTRIBUTE = "platform.errorCatalog";

/**
 * What an exchange no platform's binding made answers with (a unit test's, a binding that attached
 * none): the kernel's and the web model's codes, the only ones every platform knows. Immutable.
 */
const BARE_EXCHANGE_CATALOG: ErrorCatalog = createErrorCatalog([
  { source: "kernel", table: KERNEL_ERROR_CODES },
  { source: "web", table: WEB_ERROR_CODES },
]);

/**
 * Gives the exchange the error catalog of the platform that serves it (a binding may instead pass it
 * as `HttpRequestInit.errors`), so every error the request answers takes its status from that
 * platform's plugins' codes, not from another platform's in the same process.
 */
export function attachErrorCatalog(exchange: HttpExchange, catalog: ErrorCatalog): void {
  exchange.attributes.set(ERROR_CATALOG_ATTRIBUTE, catalog);
}

/**
 * The error catalog the exchange answers with: its platform's (see `attachErrorCatalog`), or for an
 * exchange no binding attached one to, the kernel's and web's codes alone.
 */
export function errorCatalogOf(exchange: HttpExchange): ErrorCatalog {
  return (
    (exchange.attributes.get(ERROR_CATALOG_ATTRIBUTE) as ErrorCatalog | undefined) ?? BARE_EXCHANGE_CATALOG
  );
}

/**
 * True for a PlatformError the exchange's catalog answers with a 4xx: the caller's doing, which a
 * failure handler answers; anything else (a 5xx, a code the platform does not know) propagates.
 */
export function isClientError(error: unknown, exchange: HttpExchange): error is PlatformError {
  return isPlatformError(error) && errorCatalogOf(exchange).statusOfError(error) < 500;
}
