import { HttpExchange, type ResponseBody, serializeCookie } from "@platform/core";
import { getRequestIP, getRequestProtocol, type H3Event } from "h3";
import { readLimitedText } from "./limited-body.js";

/** How an h3 event becomes an exchange: the body limit and whether forwarded headers are trusted. */
export interface ExchangeBindingOptions {
  /** Largest body `readBody` accepts, in bytes. */
  maxBodySize: number;
  /** Take the remote address and TLS from X-Forwarded-For / X-Forwarded-Proto (first entry). */
  trustProxy: boolean;
}

/**
 * Builds the core's HttpExchange from an h3 event. The path is h3's canonical `event.url` (needless
 * escapes decoded once, dot segments resolved), the same string h3 routes on, so a guard on `/admin`
 * cannot be skipped with `/%61dmin`. The remote address is the socket peer (`event.req.ip`, via
 * getRequestIP) unless the proxy is trusted; it is '' when the runtime does not know it (in-process
 * `app.request`). The body is read at most once, with the size limit enforced while streaming.
 */
export function toExchange(event: H3Event, options: ExchangeBindingOptions): HttpExchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of event.req.headers) headers[name] = value;
  const request = event.req;
  return new HttpExchange({
    method: request.method,
    url: event.url.pathname + event.url.search,
    rawPath: rawPathOf(event),
    headers,
    remoteAddress: getRequestIP(event, { xForwardedFor: options.trustProxy }) ?? "",
    secure: getRequestProtocol(event, { xForwardedProto: options.trustProxy }) === "https",
    readBody: () => readLimitedText(request, options.maxBodySize),
  });
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Writes an exchange's response state as a web Response: status, headers, one Set-Cookie header per
 * cookie, and the body (objects and arrays as JSON, strings as-is, bytes as bytes). A HEAD request
 * and a null-body status (204, 304, ...) get the headers without a body.
 */
export function writeExchange(exchange: HttpExchange): Response {
  const state = exchange.response;
  const headers = new Headers();
  for (const [name, value] of state.headers) headers.set(name, value);
  for (const cookie of state.cookies) headers.append("set-cookie", serializeCookie(cookie));
  const body = encodeBody(state.body, headers);
  const empty = exchange.method === "HEAD" || NULL_BODY_STATUS.has(state.status);
  return new Response(empty ? null : body, { status: state.status, headers });
}

function encodeBody(body: ResponseBody, headers: Headers): string | Uint8Array | null {
  if (body === undefined) return null;
  if (typeof body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8");
    return body;
  }
  if (body instanceof Uint8Array) {
    if (!headers.has("content-type")) headers.set("content-type", "application/octet-stream");
    return body;
  }
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
  return JSON.stringify(body);
}

/** The path exactly as the client sent it on the request line (before any normalisation), if known. */
function rawPathOf(event: H3Event): string | undefined {
  const node = (event.req as { runtime?: { node?: { req?: { url?: string } } } }).runtime?.node?.req;
  const url = node?.url;
  if (typeof url !== "string") return undefined;
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}
