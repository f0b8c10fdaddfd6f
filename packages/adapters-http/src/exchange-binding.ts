import { type ErrorCatalog, PlatformError } from "@keyward/core/errors";
import { HttpExchange, serializeCookie } from "@keyward/core/web";
import { getRequestIP, getRequestProtocol, type H3Event } from "h3";
import { FastResponse } from "srvx";
import { checked, HEADER_VALUE_NEEDS_WORK, type HeaderPair, VALID_HEADER_NAMES } from "./fast-response.js";
import { forwardedClient } from "./forwarded-client.js";
import { type BodySource, readLimitedText } from "./limited-body.js";
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
  // One function for the whole binding (the request path runs it on every request): the header
  // copy, the raw path and the client are inline, not helpers.
  const request = event.req;
  const node = (request as { runtime?: { node?: { req?: NodeRequestFields } } }).runtime?.node?.req;
  // Express keeps its mount path in `req.baseUrl`: under a prefix the platform's pages, redirects,
  // scripts and cookies would point outside it, so such a request is refused (docs/mounting.md).
  if (typeof node?.baseUrl === "string" && node.baseUrl !== "") throw prefixMountRefused(node.baseUrl);
  // One copy of the headers, the exchange's own map (lower-case names, so it is adopted, not copied).
  const raw = node?.rawHeaders;
  let headers: Map<string, string>;
  // Node: straight from the parser's raw list (no `Headers` object, no sorted copy).
  if (Array.isArray(raw)) headers = rawHeaderMap(raw);
  else {
    headers = new Map<string, string>();
    for (const [name, value] of request.headers) headers.set(name, value);
  }
  const peer = getRequestIP(event) ?? "";
  const client = forwardedClientOf(peer, headers, options);
  const line = node?.url;
  const q = typeof line === "string" ? line.indexOf("?") : -1;
  const init: BoundRequestInit = {
    method: request.method,
    url: event.url.pathname + event.url.search,
    // The path exactly as the client sent it on the request line (before any normalisation), if known.
    rawPath: typeof line !== "string" ? undefined : q === -1 ? line : line.slice(0, q),
    headers,
    remoteAddress: client?.address ?? peer,
    secure: (client?.protocol ?? getRequestProtocol(event)) === "https",
    // One shared function, called as the init's method: no closure or bound function per request.
    readBody: readBoundBody,
    errors: options.errors,
    request,
    maxBodySize: options.maxBodySize,
  };
  return new HttpExchange(init);
}

/**
 * Node's raw header list (`IncomingMessage.rawHeaders`: name, value, name, value...) as the exchange's
 * header map: lower-case names, values trimmed as `Headers` trims them, repeated headers joined with
 * ", " (Cookie with "; "), Set-Cookie keeping the last, HTTP/2 pseudo-headers left out.
 */
export function rawHeaderMap(raw: readonly unknown[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    if (name.charCodeAt(0) === 58) continue; // HTTP/2 pseudo-headers (`:path`) are not headers
    const text = String(raw[i + 1]);
    const value = EDGE_WHITESPACE.test(text) ? text.replace(OUTER_WHITESPACE, "") : text;
    const before = headers.get(name);
    if (before === undefined || name === "set-cookie") headers.set(name, value);
    else headers.set(name, `${before}${name === "cookie" ? "; " : ", "}${value}`);
  }
  return headers;
}

/**
 * The client a trusted proxy forwarded (`forwardedClient`), or undefined: no trusted proxy (the
 * default) or no known peer, and then the peer is the client and no forwarded header counts.
 */
export function forwardedClientOf(
  peer: string,
  headers: ReadonlyMap<string, string>,
  options: ExchangeBindingOptions,
): ReturnType<typeof forwardedClient> | undefined {
  const trust = options.trustedProxies ?? NO_TRUSTED_PROXIES;
  if (trust.kind === "none" || peer === "") return undefined;
  return forwardedClient(
    {
      peer,
      forwardedFor: headers.get("x-forwarded-for") ?? null,
      forwardedProto: headers.get("x-forwarded-proto") ?? null,
    },
    trust,
  );
}

/** What a binding hands HttpExchange (the core's HttpRequestInit). */
type HttpRequestInit = ConstructorParameters<typeof HttpExchange>[0];

/** The init toExchange hands the exchange: what `readBoundBody` reads the body from. */
interface BoundRequestInit extends HttpRequestInit {
  readonly request: BodySource;
  readonly maxBodySize: number;
}

/** The body of the request an init was made from (HttpExchange calls it as `init.readBody()`). */
function readBoundBody(this: BoundRequestInit): Promise<string> {
  return readLimitedText(this.request, this.maxBodySize);
}

/** A header value with whitespace at either end (the parser keeps it; `Headers` would trim it). */
const EDGE_WHITESPACE = /^[\t\n\r ]|[\t\n\r ]$/;
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** What the binding reads of Node's IncomingMessage (`baseUrl`: Express's mount path). */
interface NodeRequestFields {
  url?: unknown;
  rawHeaders?: unknown;
  baseUrl?: unknown;
}

/**
 * The refusal of a request that reached the platform under an Express mount path (`app.use("/auth",
 * …)` strips `/auth` from the URL and keeps it in `req.baseUrl`): a configuration error, logged with
 * the remedy, never a half-working mount.
 */
export function prefixMountRefused(baseUrl: string): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `The platform is mounted under the prefix "${baseUrl.slice(0, 64)}", which it does not support: mount it at the root (app.use(listener)); see docs/mounting.md`,
  );
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Writes an exchange's response state as a Response: status, headers, one Set-Cookie header per
 * cookie, `extraHeaders` (the correlation id), and the body (objects and arrays as JSON, strings
 * as-is, bytes as bytes). A HEAD request and a null-body status (204, 304, ...) get the headers
 * without a body. The Response is srvx's, which Node receives in one write with a Content-Length.
 * Headers follow the web `Headers` rules as ResponseHeaders does (names case-insensitive, a later
 * value replaces, values trimmed, an invalid name or value a TypeError), inline: a name already
 * checked and a clean value cost one Set lookup and one regex test, and no function of ours.
 */
export function writeExchange(
  exchange: HttpExchange,
  extraHeaders?: Readonly<Record<string, string>>,
): Response {
  const { status, headers: flat, body } = answerOf(exchange, extraHeaders);
  const headers: HeaderPair[] = [];
  for (let i = 0; i < flat.length; i += 2) headers.push([flat[i] as string, flat[i + 1] as string]);
  return new FastResponse(body, { status, headers }) as Response;
}

/** An exchange's answer as it goes on the wire: status, headers in `Headers` order, and the body. */
export interface ExchangeAnswer {
  readonly status: number;
  /** Name, value, name, value...: lower-case names by name order, as Node's `writeHead` takes them. */
  readonly headers: string[];
  /** Null for a HEAD request and a null-body status (204, 304, ...). */
  readonly body: string | Uint8Array | null;
}

/**
 * The answer writeExchange writes (and the direct Node writer, `writeNodeAnswer`): the exchange's
 * status, its headers by the web `Headers` rules with `extraHeaders` and one Set-Cookie line per
 * cookie, and its body encoded (objects and arrays as JSON). The headers are one flat list (no
 * array per header), which Node's `writeHead` takes as it is.
 */
export function answerOf(
  exchange: HttpExchange,
  extraHeaders?: Readonly<Record<string, string>>,
): ExchangeAnswer {
  const state = exchange.response;
  // The list is built directly (no map of names, no second pass): a name set in lower case, as
  // the platform's own code sets them, is unique among those; a name in another case, and an extra
  // header, first replaces one of the same name. Set-Cookie lines are added after, in order.
  const out: string[] = [];
  let cookie: string | undefined;
  let typed = false;
  let scan = false;
  let replacedCookies = false;
  for (const [name, value] of state.headers) {
    const lower = name.toLowerCase();
    const clean =
      VALID_HEADER_NAMES.has(lower) && !HEADER_VALUE_NEEDS_WORK.test(value) ? value : checked(lower, value);
    if (lower === "set-cookie") cookie = clean;
    else {
      if (lower !== name) scan = true;
      if (scan) setHeader(out, lower, clean);
      else out.push(lower, clean);
      if (lower === "content-type") typed = true;
    }
  }
  if (extraHeaders) {
    for (const name in extraHeaders) {
      const value = extraHeaders[name] as string;
      const lower = name.toLowerCase();
      const clean =
        VALID_HEADER_NAMES.has(lower) && !HEADER_VALUE_NEEDS_WORK.test(value) ? value : checked(lower, value);
      if (lower === "set-cookie") {
        // Replaces every cookie line, as `Headers.set` would.
        cookie = clean;
        replacedCookies = true;
        continue;
      }
      // A name the exchange's own (lower-case, so unique) headers do not hold needs no search,
      // unless a name in another case came before it.
      if (lower !== name) scan = true;
      if (scan || state.headers.has(lower)) setHeader(out, lower, clean);
      else out.push(lower, clean);
      if (lower === "content-type") typed = true;
    }
  }
  const body = state.body;
  let encoded: string | Uint8Array | null = null;
  if (typeof body === "string") {
    encoded = body;
    if (!typed) out.push("content-type", "text/plain; charset=utf-8");
  } else if (body instanceof Uint8Array) {
    encoded = body;
    if (!typed) out.push("content-type", "application/octet-stream");
  } else if (body !== undefined) {
    encoded = JSON.stringify(body);
    if (!typed) out.push("content-type", "application/json; charset=utf-8");
  }
  if (cookie !== undefined) out.push("set-cookie", cookie);
  if (!replacedCookies)
    for (const c of state.cookies) out.push("set-cookie", checked("set-cookie", serializeCookie(c)));
  // In the order `Headers` lists them: by name (an insertion sort over the pairs, stable, so the
  // Set-Cookie lines keep theirs; a handful of names, and no comparison function).
  for (let i = 2; i < out.length; i += 2) {
    const headerName = out[i] as string;
    const headerValue = out[i + 1] as string;
    let j = i - 2;
    for (; j >= 0 && (out[j] as string) > headerName; j -= 2) {
      out[j + 2] = out[j] as string;
      out[j + 3] = out[j + 1] as string;
    }
    out[j + 2] = headerName;
    out[j + 3] = headerValue;
  }
  const status = state.status;
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
  }
  const empty = exchange.method === "HEAD" || NULL_BODY_STATUS.has(status);
  return { status, headers: out, body: empty ? null : encoded };
}

/** Sets a header in a flat list: replaces the value of one of the same name, else appends it. */
function setHeader(out: string[], name: string, value: string): void {
  for (let i = 0; i < out.length; i += 2)
    if (out[i] === name) {
      out[i + 1] = value;
      return;
    }
  out.push(name, value);
}
