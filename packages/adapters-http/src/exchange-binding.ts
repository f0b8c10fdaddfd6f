import { type ErrorCatalog, PlatformError } from "@keyward/core/errors";
import { attachErrorCatalog, HttpExchange, type ResponseBody, serializeCookie } from "@keyward/core/web";
import { getRequestIP, getRequestProtocol, type H3Event } from "h3";
import { fastResponse, ResponseHeaders } from "./fast-response.js";
import { forwardedClient } from "./forwarded-client.js";
import { readLimitedText } from "./limited-body.js";
import { NO_TRUSTED_PROXIES, type TrustedProxies } from "./trusted-proxies.js";

/** How an h3 event becomes an exchange: the body limit and which proxies' forwarded headers count. */
export interface ExchangeBindingOptions {
  /** Largest body `readBody` accepts, in bytes. */
  maxBodySize: number;
  /**
   * Proxies whose X-Forwarded-For / X-Forwarded-Proto count (`parseTrustedProxies`); none by default,
   * so the socket peer is the client.
   */
  trustedProxies?: TrustedProxies;
  /**
   * The serving platform's error codes, attached to every exchange so its errors answer with this
   * platform's statuses (none: the kernel's and web's codes alone).
   */
  errors?: ErrorCatalog;
}

/**
 * Builds the core's HttpExchange from an h3 event. The path handed over is h3's `event.url.pathname`
 * (dot segments resolved, most needless escapes decoded, but `%5E` kept and hex case as sent); the
 * exchange canonicalises it once more (canonicalPath: every needless escape decoded, escapes upper
 * case, trailing slashes dropped), and that one string is what guards, policies and the route table
 * compare, so `/%61dmin/` cannot pass an `/admin` guard; the request line stays in rawPath. The remote address is the socket peer (`event.req.ip`, via
 * getRequestIP), or, when that peer is a trusted proxy, the client it forwarded (`forwardedClient`:
 * the right-most X-Forwarded-For entry that is not a trusted proxy); it is '' when the runtime does
 * not know the peer (in-process `app.request`), and then no forwarded header counts. The body is
 * read at most once, with the size limit enforced while streaming.
 */
export function toExchange(event: H3Event, options: ExchangeBindingOptions): HttpExchange {
  refusePrefixMount(event);
  const headers = requestHeaders(event);
  const request = event.req;
  const client = forwardedClient(
    {
      peer: getRequestIP(event) ?? "",
      forwardedFor: headers["x-forwarded-for"] ?? null,
      forwardedProto: headers["x-forwarded-proto"] ?? null,
    },
    options.trustedProxies ?? NO_TRUSTED_PROXIES,
  );
  const exchange = new HttpExchange({
    method: request.method,
    url: event.url.pathname + event.url.search,
    rawPath: rawPathOf(event),
    headers,
    remoteAddress: client.address,
    secure: (client.protocol ?? getRequestProtocol(event)) === "https",
    readBody: () => readLimitedText(request, options.maxBodySize),
  });
  if (options.errors) attachErrorCatalog(exchange, options.errors);
  return exchange;
}

/**
 * The request headers as the web `Headers` of the request would list them (lower-case names, repeated
 * headers joined with ", ", Cookie with "; ", a repeated Set-Cookie keeping its last value, values
 * trimmed). On Node
 * they are read straight from the parser's raw list, which spares building a `Headers` object (and
 * its sorted copy) on every request; elsewhere from `event.req.headers`.
 */
function requestHeaders(event: H3Event): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = nodeRequestOf(event)?.rawHeaders;
  if (!Array.isArray(raw)) {
    for (const [name, value] of event.req.headers) headers[name] = value;
    return headers;
  }
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    if (name.charCodeAt(0) === 58) continue; // HTTP/2 pseudo-headers (`:path`) are not headers
    const value = trimWhitespace(String(raw[i + 1]));
    const before = headers[name];
    if (before === undefined || name === "set-cookie") headers[name] = value;
    else headers[name] = `${before}${name === "cookie" ? "; " : ", "}${value}`;
  }
  return headers;
}

const EDGE_WHITESPACE = /^[\t\n\r ]|[\t\n\r ]$/;

function trimWhitespace(value: string): string {
  return EDGE_WHITESPACE.test(value) ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") : value;
}

/** What the binding reads of Node's IncomingMessage (`baseUrl`: Express's mount path). */
interface NodeRequestFields {
  url?: unknown;
  rawHeaders?: unknown;
  baseUrl?: unknown;
}

/** Node's IncomingMessage behind an h3 event, when the runtime is Node. */
function nodeRequestOf(event: H3Event): NodeRequestFields | undefined {
  return (event.req as { runtime?: { node?: { req?: NodeRequestFields } } }).runtime?.node?.req;
}

/**
 * Refuses a request that reached the platform under an Express mount path (`app.use("/auth", …)`
 * strips `/auth` from the URL and keeps it in `req.baseUrl`): the platform's pages, redirects,
 * scripts and cookies name root paths, so under a prefix they would point outside it. A
 * configuration error, logged with the remedy (docs/mounting.md), never a half-working mount.
 */
function refusePrefixMount(event: H3Event): void {
  const baseUrl = nodeRequestOf(event)?.baseUrl;
  if (typeof baseUrl === "string" && baseUrl !== "") {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `The platform is mounted under the prefix "${baseUrl.slice(0, 64)}", which it does not support: mount it at the root (app.use(listener)); see docs/mounting.md`,
    );
  }
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Writes an exchange's response state as a Response: status, headers, one Set-Cookie header per
 * cookie, `extraHeaders` (the correlation id), and the body (objects and arrays as JSON, strings
 * as-is, bytes as bytes). A HEAD request and a null-body status (204, 304, ...) get the headers
 * without a body. The Response is srvx's, which Node receives in one write with a Content-Length.
 */
export function writeExchange(
  exchange: HttpExchange,
  extraHeaders?: Readonly<Record<string, string>>,
): Response {
  const state = exchange.response;
  const headers = new ResponseHeaders();
  for (const [name, value] of state.headers) headers.set(name, value);
  for (const cookie of state.cookies) headers.appendCookie(serializeCookie(cookie));
  if (extraHeaders) for (const name in extraHeaders) headers.set(name, extraHeaders[name] as string);
  const body = encodeBody(state.body, headers);
  const empty = exchange.method === "HEAD" || NULL_BODY_STATUS.has(state.status);
  return fastResponse(state.status, headers.pairs(), empty ? null : body);
}

function encodeBody(body: ResponseBody, headers: ResponseHeaders): string | Uint8Array | null {
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
  const url = nodeRequestOf(event)?.url;
  if (typeof url !== "string") return undefined;
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}
