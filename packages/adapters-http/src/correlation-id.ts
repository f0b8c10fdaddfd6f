/** Longest incoming correlation id the binding adopts; a longer one is replaced by a new id. */
export const MAX_CORRELATION_ID_LENGTH = 64;

/** The request headers an incoming correlation id is read from, in the order they are tried. */
export const CORRELATION_ID_HEADERS = ["x-request-id", "x-correlation-id", "traceparent"] as const;

/** Request headers read by lower-case name (a web `Headers`, say). */
export interface HeaderReader {
  get(name: string): string | null | undefined;
}

/**
 * The correlation id the client (or the proxy in front of us) sent, when one is well-formed:
 * `X-Request-Id`, then `X-Correlation-Id` (1 to 64 characters of `A-Z a-z 0-9 . _ -`), then the
 * trace id of a W3C `traceparent` (version `00`, a 32-hex trace id not all zeros, a 16-hex parent id
 * not all zeros, 2-hex flags). A malformed header is skipped, never echoed or logged; none
 * well-formed: undefined (the binding makes a new id). Checked by a loop over char codes, no regex.
 */
export function incomingCorrelationId(headers: HeaderReader): string | undefined {
  const requestId = headers.get("x-request-id");
  if (requestId != null && isSafeId(requestId)) return requestId;
  const correlationId = headers.get("x-correlation-id");
  if (correlationId != null && isSafeId(correlationId)) return correlationId;
  const traceparent = headers.get("traceparent");
  return traceparent == null ? undefined : traceIdOf(traceparent);
}

/** True for 1 to 64 characters of `A-Z a-z 0-9 . _ -` (nothing a log line or a header must escape). */
export function isSafeId(value: string): boolean {
  const length = value.length;
  if (length === 0 || length > MAX_CORRELATION_ID_LENGTH) return false;
  for (let i = 0; i < length; i++) if (!isIdChar(value.charCodeAt(i))) return false;
  return true;
}

/**
 * The trace id of a `traceparent` header of version 00 (`00-<32 hex>-<16 hex>-<2 hex>`, exactly 55
 * characters, lower-case hex as the W3C Trace Context requires), or undefined when it is anything
 * else (another version, upper-case hex, an all-zero trace or parent id, extra characters).
 */
export function traceIdOf(traceparent: string): string | undefined {
  if (traceparent.length !== 55) return undefined;
  if (traceparent.charCodeAt(0) !== 48 || traceparent.charCodeAt(1) !== 48) return undefined;
  if (traceparent.charCodeAt(2) !== 45 || traceparent.charCodeAt(35) !== 45) return undefined;
  if (traceparent.charCodeAt(52) !== 45) return undefined;
  if (!isHexRun(traceparent, 3, 35) || !isHexRun(traceparent, 36, 52) || !isHexRun(traceparent, 53, 55))
    return undefined;
  if (isZeroRun(traceparent, 3, 35) || isZeroRun(traceparent, 36, 52)) return undefined;
  return traceparent.slice(3, 35);
}

function isIdChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || // 0-9
    (c >= 65 && c <= 90) || // A-Z
    (c >= 97 && c <= 122) || // a-z
    c === 45 || // -
    c === 46 || // .
    c === 95 // _
  );
}

function isHexRun(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function isZeroRun(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 48) return false;
  return true;
}
