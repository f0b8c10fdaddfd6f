import type { ErrorCatalog } from "../kernel/error-catalog.js";
import { isPlatformError } from "../kernel/platform-error.js";
import type { ErrorBody } from "./wire/error-body.js";

/** The JSON body of every error answer (the wire shape). */
export type { ErrorBody };

/** What to answer for an error: the status, the body, and whether it was unexpected (to be logged). */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  unexpected: boolean;
}

/**
 * Maps any thrown value to an HTTP answer. A PlatformError keeps its code, message and details and
 * takes its status from `catalog`, the serving platform's codes (a code it does not know answers
 * 500); anything else (and any 5xx but 503, whose code would name internals)
 * becomes a generic 500 INTERNAL_ERROR whose only
 * detail is the correlation id, so no stack trace or internal message ever reaches a client.
 */
export function errorResponse(error: unknown, correlationId: string, catalog: ErrorCatalog): ErrorResponse {
  if (isPlatformError(error)) {
    const status = catalog.statusOfError(error);
    // 503 is a deliberate "not now" (e.g. ZERO_TRUST_PENDING_ANALYSIS), not an internal failure.
    if (status >= 500 && status !== 503) {
      return {
        status,
        body: { code: "INTERNAL_ERROR", message: "Internal error", correlationId },
        unexpected: true,
      };
    }
    return {
      status,
      body: { ...(error.details ?? {}), code: error.code, message: error.message },
      unexpected: false,
    };
  }
  return {
    status: 500,
    body: { code: "INTERNAL_ERROR", message: "Internal error", correlationId },
    unexpected: true,
  };
}
