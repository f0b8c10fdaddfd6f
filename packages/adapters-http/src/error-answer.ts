import { PlatformError, type ErrorCatalog, type PlatformErrorCode } from "@keyward/core/errors";
import type { Logger } from "@keyward/core/ports";
import { errorResponse } from "@keyward/core/web";
import type { HTTPError } from "h3";
import { fastResponse, ResponseHeaders } from "./fast-response.js";

/** What an error answer needs to know about the request it failed. */
export interface ErrorAnswerContext {
  correlationId: string;
  method: string;
  path: string;
  logger: Logger;
  /** The serving platform's error codes: the status of a PlatformError's code comes from here. */
  errors: ErrorCatalog;
  /** Headers already decided for the response (security headers, Allow, CORS); representation ones are dropped. */
  headers?: Iterable<[string, string]>;
}

/** Headers that describe the failed representation and must not leak onto the error answer. */
const DROPPED = new Set([
  "content-type",
  "content-length",
  "content-encoding",
  "content-range",
  "etag",
  "last-modified",
  "location",
  "set-cookie",
]);

/**
 * Turns any thrown value into the JSON error answer of the platform's error catalog (`errorResponse`). An
 * unexpected error answers a generic 500 and is logged as one line with the correlation id, method,
 * path, message and stack; the client only ever sees the code, a safe message and the correlation
 * id. A client that hung up mid-body (CLIENT_ABORTED) is not a server error: at most one debug line,
 * no stack, so a client cannot flood the log. Cookies the failed request would have set are dropped (it changed nothing the client should
 * hold on to); other decided headers (security headers, Allow, CORS) are kept.
 */
export function errorAnswer(error: unknown, context: ErrorAnswerContext): Response {
  const answer = errorResponse(error, context.correlationId, context.errors);
  if (answer.unexpected) logUnexpected(error, context);
  else if (answer.body.code === "CLIENT_ABORTED") logAborted(context);
  const headers = new ResponseHeaders();
  for (const [name, value] of context.headers ?? []) {
    if (DROPPED.has(name.toLowerCase())) continue;
    try {
      headers.set(name, value);
    } catch {
      // Not a header (a name or value that would split the header block, often what failed the
      // answer in the first place): left off the error answer, which must always be written.
    }
  }
  headers.set("content-type", "application/json; charset=utf-8");
  // An answer refused before the chain's security headers ran (the request firewall, a malformed
  // request) still tells the browser not to sniff it and no cache to keep it.
  if (!headers.has("x-content-type-options")) headers.set("x-content-type-options", "nosniff");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  headers.set("x-correlation-id", context.correlationId);
  headers.set("x-request-id", context.correlationId);
  // An oversized body may still be arriving (or be half read): close rather than parse its rest as a request.
  // An aborted one left the connection unusable; the answer cannot be delivered anyway.
  if (answer.status === 413 || answer.body.code === "CLIENT_ABORTED") headers.set("connection", "close");
  const body = context.method.toUpperCase() === "HEAD" ? null : JSON.stringify(answer.body);
  return fastResponse(answer.status, headers.pairs(), body);
}

/** h3's own errors (malformed URL, its 404/405, body limits) as the platform's error codes. */
export function fromH3Error(error: HTTPError): unknown {
  if (error.unhandled || error.status >= 500) return error.cause ?? error;
  const code = H3_STATUS_CODES[error.status] ?? "BAD_REQUEST";
  return new PlatformError(code, H3_MESSAGES[code] ?? "Bad request", { status: error.status, cause: error });
}

const H3_STATUS_CODES: Readonly<Record<number, PlatformErrorCode>> = {
  400: "BAD_REQUEST",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

const H3_MESSAGES: Readonly<Partial<Record<PlatformErrorCode, string>>> = {
  BAD_REQUEST: "Bad request",
  NOT_FOUND: "Not found",
  METHOD_NOT_ALLOWED: "Method not allowed",
  PAYLOAD_TOO_LARGE: "The request body is too large",
  UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
};

function logUnexpected(error: unknown, context: ErrorAnswerContext): void {
  const err = error instanceof Error ? error : undefined;
  try {
    context.logger.error("request failed", {
      correlationId: context.correlationId,
      method: context.method,
      path: context.path,
      errorName: err?.name ?? typeof error,
      error: err ? err.message : safeString(error),
      stack: err?.stack,
      cause: err?.cause === undefined ? undefined : safeString(err.cause),
    });
  } catch {
    // A broken logger must not turn a 500 into a dropped connection.
  }
}

function logAborted(context: ErrorAnswerContext): void {
  try {
    context.logger.debug?.("request aborted by the client", {
      correlationId: context.correlationId,
      method: context.method,
      path: context.path,
    });
  } catch {
    // As above: logging never changes the answer.
  }
}

function safeString(value: unknown): string {
  try {
    return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  } catch {
    return "[unprintable]";
  }
}
