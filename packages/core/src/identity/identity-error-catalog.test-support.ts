import { createErrorCatalog } from "../kernel/error-catalog.js";
import { KERNEL_ERROR_CODES } from "../kernel/kernel-error-codes.js";
import { attachErrorCatalog } from "../web/exchange-error-catalog.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { WEB_ERROR_CODES } from "../web/web-error-codes.js";
import { IDENTITY_ERROR_CODES } from "./identity-error-codes.js";

/** Test support: the codes a platform with the identity plugin knows (kernel, web, identity). */
export const IDENTITY_PLATFORM_CATALOG = createErrorCatalog([
  { source: "kernel", table: KERNEL_ERROR_CODES },
  { source: "identity", table: WEB_ERROR_CODES },
  { source: "identity", table: IDENTITY_ERROR_CODES },
]);

/**
 * Test support: `exchange` as the HTTP binding of a platform with the identity plugin would hand it
 * over, answering identity's codes with their statuses.
 */
export function servedByIdentity<X extends HttpExchange>(exchange: X): X {
  attachErrorCatalog(exchange, IDENTITY_PLATFORM_CATALOG);
  return exchange;
}
