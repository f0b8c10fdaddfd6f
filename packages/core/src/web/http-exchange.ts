import { isPlatformError, PlatformError } from "../kernel/platform-error.js";
import type { ErrorCatalog } from "../kernel/error-catalog.js";
import { CANONICAL_RAW, canonicalPath } from "./canonical-path.js";
import { ERROR_CATALOG_ATTRIBUTE } from "./exchange-error-catalog.js";
import type { PathVariables } from "./path-pattern.js";
import type { Route } from "./route-table.js";

/** A cookie the response sets (or clears, with maxAge 0). */
export interface ResponseCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
}

/** What a binding hands the core: one HTTP request, framework-free. */
export interface HttpRequestInit {
  method: string;
  /** Path and query as received, e.g. `/login?error`. */
  url: string;
  /**
   * The path exactly as the client sent it, before the server normalised it (dot segments, escapes),
   * when the binding knows it; the request firewall refuses ambiguous raw paths too.
   */
  rawPath?: string;
  /**
   * Header names in any case; multi-valued headers joined with ", ". A Map is taken as it is, not
   * copied: its names must already be lower case (a binding that builds the map itself spares the
   * exchange a second copy of every header).
   */
  headers: Record<string, string | undefined> | ReadonlyMap<string, string>;
  remoteAddress: string;
  /** True when the request reached us over TLS (or a trusted proxy said so). */
  secure?: boolean;
  /**
   * Reads the raw body once; the binding enforces the size limit and throws PAYLOAD_TOO_LARGE. It is
   * called as a method of this init (`init.readBody()`), so a binding can pass one shared function
   * that reads what it needs from the init instead of a closure or bound function per request.
   */
  readBody?: () => Promise<string>;
  /**
   * The error codes of the platform serving the request (its bindings pass `platform.resolve(ErrorCatalog)`),
   * so the request's errors answer with that platform's statuses; none: the kernel's and web's codes.
   */
  errors?: ErrorCatalog;
}

/**
 * What matching one request found, kept on its exchange (`HttpExchange.match`) so the request is
 * matched once: the chain step records the chain, the route lookup the route and its variables, and
 * the later steps (the handler, the entry points) read them here instead of matching again.
 */
export interface RequestMatch {
  /** The security filter chain serving the request (identity's chain step), or undefined: none, or not chosen yet. */
  chain: { readonly id: string } | undefined;
  /**
   * The route lookup's result as the binding that made it keeps it (adapters-http: the match and the
   * state of the registry it was made in, so a route added meanwhile is seen), or undefined.
   */
  route: unknown;
  /** The matched route's path variables, decoded once (empty until a route is found). */
  variables: PathVariables;
  /**
   * The chain's entry-route lookup (identity's entry-points filter, one per request): the route and
   * its variables, `null` when the chain has none for the request, undefined when not looked up
   * (no chain, or the request was answered before the entry step). The access log and metrics read
   * the route's name here.
   */
  entry: { readonly route: Route; readonly params: Readonly<Record<string, string>> } | null | undefined;
}

/** A body the response carries: JSON-serialisable values, text or bytes. */
export type ResponseBody = string | Uint8Array | Record<string, unknown> | unknown[] | undefined;

/**
 * The response half of an exchange, written by the security runtime or a route. A plain object the
 * exchange makes in its constructor (a class's field initialiser would be one more function per request).
 */
export interface HttpResponseState {
  status: number;
  readonly headers: Map<string, string>;
  readonly cookies: ResponseCookie[];
  body: ResponseBody;
  /** True once something decided the response; later filters must not overwrite it. */
  committed: boolean;
}

/** Fields of a parsed body: form or JSON objects flattened to their first-level values. */
export type BodyFields = Record<string, unknown>;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/**
 * One request and its response as the core's security runtime sees them: method, path, headers,
 * cookies, body and remote address in; status, headers, cookies and body out. Bindings (h3, or a
 * host's own) build one from their native event and write the response state back.
 */
export class HttpExchange {
  declare readonly method: string;
  /**
   * The canonical path (see canonicalPath: `/a/` is `/a`, `/%61` is `/a`): the one string every
   * matcher, the URL PDP, the exact-path filters and the route table compare.
   */
  declare readonly path: string;
  /**
   * The canonical path split into its segments (splitPath), once, when the exchange is made: what
   * every matcher on the request path reads (chains, static rules, CSRF exemptions, routes, the PDP's
   * index). Undefined when the path does not start with `/` (no pattern matches it; the firewall
   * refuses it).
   */
  declare readonly segments: readonly string[] | undefined;
  /** What matching found for this request (chain, route, path variables): see RequestMatch. */
  declare readonly match: RequestMatch;
  /** The path as received before canonicalisation (the request line's, when the binding knows it). */
  declare readonly rawPath: string;
  declare readonly remoteAddress: string;
  declare readonly secure: boolean;
  declare readonly response: HttpResponseState;
  /** Request-scoped values (authentication, CSRF token, correlation id, ...). */
  declare readonly attributes: Map<string, unknown>;
  declare private readonly headerMap: ReadonlyMap<string, string>;
  declare private cookieMap: Map<string, string> | undefined;
  /** The init, when it reads a body (its `readBody` is called as its method). */
  declare private readonly bodySource: HttpRequestInit | undefined;
  /** The query string after `?` ('' for none), parsed on first use of `query`. */
  declare private readonly search: string;
  declare private queryParams: URLSearchParams | undefined;
  declare private bodyText: Promise<string> | undefined;
  declare private parsed: Promise<{ kind: "json" | "form" | "empty"; fields: BodyFields }> | undefined;

  // Every field is declared above and set here, none by an initialiser (`declare`: no field
  // definitions either): `new` runs this one function of ours.
  constructor(init: HttpRequestInit) {
    this.match = { chain: undefined, route: undefined, variables: {}, entry: undefined };
    this.response = { status: 200, headers: new Map(), cookies: [], body: undefined, committed: false };
    this.attributes = new Map();
    if (init.errors !== undefined) this.attributes.set(ERROR_CATALOG_ATTRIBUTE, init.errors);
    this.cookieMap = undefined;
    this.bodyText = undefined;
    this.parsed = undefined;
    this.method = init.method.toUpperCase();
    const q = init.url.indexOf("?");
    const received = q === -1 ? init.url : init.url.slice(0, q);
    // canonicalPath's fast path (isCanonical), inline: a received path is nearly always canonical
    // already (no trailing slash, every byte one that stands raw).
    let canonical = !(received.length > 1 && received.charCodeAt(received.length - 1) === 47);
    for (let i = 0; canonical && i < received.length; i++) {
      const c = received.charCodeAt(i);
      canonical = c === 47 || (c < 128 && CANONICAL_RAW[c] === 1);
    }
    const path = canonical ? received : canonicalPath(received);
    this.path = path;
    // splitPath, inline.
    this.segments = path === "" ? [""] : path.charCodeAt(0) === 47 ? path.slice(1).split("/") : undefined;
    this.search = q === -1 ? "" : init.url.slice(q + 1);
    this.queryParams = undefined;
    // The firewall judges the received form too: canonicalisation must not hide a `%2e` or a `//`.
    this.rawPath = init.rawPath ?? received;
    this.remoteAddress = init.remoteAddress;
    this.secure = init.secure ?? false;
    const headers = init.headers;
    if (headers instanceof Map) this.headerMap = headers;
    else {
      const map = new Map<string, string>();
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) map.set(k.toLowerCase(), v);
      this.headerMap = map;
    }
    this.bodySource = init.readBody === undefined ? undefined : init;
  }

  /** The query parameters (parsed when first asked: most requests never read them). */
  get query(): URLSearchParams {
    this.queryParams ??= new URLSearchParams(this.search);
    return this.queryParams;
  }

  /** A request header (case-insensitive), or undefined. */
  header(name: string): string | undefined {
    return this.headerMap.get(name.toLowerCase());
  }

  /** All request headers, lower-case names. */
  headerEntries(): IterableIterator<[string, string]> {
    return this.headerMap.entries();
  }

  /** A request cookie, or undefined. */
  cookie(name: string): string | undefined {
    if (this.cookieMap === undefined) {
      const header = this.headerMap.get("cookie");
      // No Cookie header (API callers): nothing to parse, nothing kept.
      if (header === undefined) return undefined;
      this.cookieMap = parseCookieHeader(header);
    }
    return this.cookieMap.get(name);
  }

  /** The media type of the request body without parameters, lower case ('' when absent). */
  contentType(): string {
    return (this.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  }

  /** True when the client prefers a JSON answer (Accept, a JSON body, or X-Requested-With). */
  wantsJson(): boolean {
    const accept = this.header("accept") ?? "";
    if (/application\/json/i.test(accept)) return true;
    if (/text\/html/i.test(accept)) return false;
    return JSON_TYPE.test(this.contentType()) || this.header("x-requested-with") === "XMLHttpRequest";
  }

  /** The raw body text, read once (empty string when there is none). */
  text(): Promise<string> {
    this.bodyText ??= this.bodySource?.readBody ? this.bodySource.readBody() : Promise.resolve("");
    return this.bodyText;
  }

  /**
   * The body as fields: a JSON object or an urlencoded form. Throws MALFORMED_JSON,
   * MALFORMED_BODY or UNSUPPORTED_MEDIA_TYPE (all 4xx) rather than letting a parser error escape.
   */
  async fields(accept: ReadonlyArray<"json" | "form"> = ["json", "form"]): Promise<BodyFields> {
    this.parsed ??= this.parseFields();
    let parsed: { kind: "json" | "form" | "empty"; fields: BodyFields };
    try {
      parsed = await this.parsed;
    } catch (error) {
      if (isPlatformError(error, "UNSUPPORTED_MEDIA_TYPE")) {
        throw new PlatformError(
          "UNSUPPORTED_MEDIA_TYPE",
          `Expected ${accept.map(mediaName).join(" or ")} body`,
          {
            details: error.details,
          },
        );
      }
      throw error;
    }
    const { kind, fields } = parsed;
    if (kind !== "empty" && !accept.includes(kind)) {
      throw new PlatformError(
        "UNSUPPORTED_MEDIA_TYPE",
        `Expected ${accept.map(mediaName).join(" or ")} body`,
        {
          details: { contentType: this.contentType() },
        },
      );
    }
    return fields;
  }

  private async parseFields(): Promise<{ kind: "json" | "form" | "empty"; fields: BodyFields }> {
    const type = this.contentType();
    const text = await this.text();
    if (JSON_TYPE.test(type)) return { kind: "json", fields: parseJsonObject(text) };
    if (FORM_TYPE.test(type)) {
      const fields: BodyFields = Object.create(null);
      for (const [k, v] of new URLSearchParams(text)) if (!(k in fields)) fields[k] = v;
      return { kind: "form", fields };
    }
    if (text.length === 0 && type === "") return { kind: "empty", fields: {} };
    throw new PlatformError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Expected application/json or application/x-www-form-urlencoded body",
      {
        details: { contentType: type || null },
      },
    );
  }

  /** Writes a JSON response and commits the exchange. */
  json(status: number, body: Record<string, unknown> | unknown[]): void {
    this.response.status = status;
    this.response.headers.set("content-type", "application/json; charset=utf-8");
    this.response.body = body;
    this.response.committed = true;
  }

  /** Writes an HTML response and commits the exchange. */
  html(status: number, body: string): void {
    this.response.status = status;
    this.response.headers.set("content-type", "text/html; charset=utf-8");
    this.response.body = body;
    this.response.committed = true;
  }

  /** Answers a 302 redirect (303 after a POST would also do; 302 is what the docs promise browsers). */
  redirect(location: string, status = 302): void {
    this.response.status = status;
    this.response.headers.set("location", location);
    this.response.body = undefined;
    this.response.committed = true;
  }

  /** Adds a Set-Cookie to the response. */
  setCookie(cookie: ResponseCookie): void {
    const i = this.response.cookies.findIndex((c) => c.name === cookie.name);
    if (i === -1) this.response.cookies.push(cookie);
    else this.response.cookies[i] = cookie;
  }
}

function mediaName(kind: "json" | "form"): string {
  return kind === "json" ? "application/json" : "application/x-www-form-urlencoded";
}

function parseJsonObject(text: string): BodyFields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PlatformError("MALFORMED_JSON", "The request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PlatformError("MALFORMED_BODY", "The request body must be a JSON object");
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new PlatformError("MALFORMED_BODY", `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return value as BodyFields;
}

/** Deepest JSON nesting a request body may have; deeper bodies are refused before any code sees them. */
export const MAX_JSON_DEPTH = 32;

function depthExceeds(value: unknown, budget: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (budget === 0) return true;
  for (const child of Object.values(value)) if (depthExceeds(child, budget - 1)) return true;
  return false;
}

/** Parses a Cookie header into name → value; malformed pairs are skipped, the first duplicate wins. */
export function parseCookieHeader(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // Without a `%` there is nothing to decode (decodeURIComponent would return it as it is).
    if (value.includes("%")) {
      try {
        value = decodeURIComponent(value);
      } catch {
        continue;
      }
    }
    if (name && !out.has(name)) out.set(name, value);
  }
  return out;
}

/** Serialises a response cookie into a Set-Cookie header value. */
export function serializeCookie(c: ResponseCookie): string {
  let s = `${c.name}=${encodeURIComponent(c.value)}; Path=${c.path ?? "/"}`;
  if (c.domain) s += `; Domain=${c.domain}`;
  if (c.maxAge !== undefined) s += `; Max-Age=${Math.floor(c.maxAge)}`;
  if (c.maxAge === 0) s += "; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  if (c.httpOnly) s += "; HttpOnly";
  if (c.secure) s += "; Secure";
  if (c.sameSite) s += `; SameSite=${c.sameSite}`;
  return s;
}
