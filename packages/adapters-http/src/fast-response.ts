import { FastResponse } from "srvx";

/** One response header as written on the wire: lower-case name, value. */
export type HeaderPair = [name: string, value: string];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Collects response headers with the web `Headers` rules (names case-insensitive, a later `set`
 * replaces, values trimmed, an invalid name or value refused with a TypeError) into the pairs a
 * response writes, in the order `Headers` iterates them: by name, each Set-Cookie on its own line.
 * Building the pairs directly saves the `Headers` object, its copy and its iterator on every answer.
 */
export class ResponseHeaders {
  private readonly values = new Map<string, string>();
  private readonly cookies: string[] = [];

  /** Sets (replaces) a header. */
  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    const clean = checked(lower, value);
    if (lower === "set-cookie") {
      this.cookies.length = 0;
      this.cookies.push(clean);
    } else this.values.set(lower, clean);
  }

  /** Adds one Set-Cookie line. */
  appendCookie(value: string): void {
    this.cookies.push(checked("set-cookie", value));
  }

  /** True when the header is set (Set-Cookie excepted). */
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  /** The pairs, sorted by name as `Headers` would list them. */
  pairs(): HeaderPair[] {
    const names = [...this.values.keys()];
    if (this.cookies.length > 0) names.push("set-cookie");
    names.sort();
    const out: HeaderPair[] = [];
    for (const name of names) {
      if (name === "set-cookie") for (const cookie of this.cookies) out.push([name, cookie]);
      else out.push([name, this.values.get(name) as string]);
    }
    return out;
  }
}

/**
 * Lower-case names already checked: the same few names recur on every answer. Bounded, so odd names
 * cannot grow it. writeExchange reads it inline, as `checked` does.
 */
export const VALID_HEADER_NAMES = new Set<string>();
const MAX_VALID_NAMES = 512;
/** A value that needs trimming or refusing (the usual one needs neither), told by one test. */
export const HEADER_VALUE_NEEDS_WORK = /^[\t\n\r ]|[\t\n\r ]$|[\0\r\n]/;

/**
 * A header's value as the web `Headers` would keep it (outer whitespace trimmed), for a lower-case
 * name; a TypeError for an invalid name or value.
 */
export function checked(name: string, value: string): string {
  if (!VALID_HEADER_NAMES.has(name)) {
    if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
    if (VALID_HEADER_NAMES.size < MAX_VALID_NAMES) VALID_HEADER_NAMES.add(name);
  }
  if (!HEADER_VALUE_NEEDS_WORK.test(value)) return value;
  const trimmed = value.replace(OUTER_WHITESPACE, "");
  if (FORBIDDEN_IN_VALUE.test(trimmed)) throw new TypeError(`Invalid header value for "${name}"`);
  return trimmed;
}

/**
 * A response srvx writes to Node's socket in one go: status line and headers, then the whole body
 * with a Content-Length, in one `end`, instead of a web `Response` whose body srvx would pull through
 * a web stream chunk by chunk (`makeTransferable`, `streamBody`) and send chunked. It is still a
 * `Response` for everyone else (`app.request()` callers read it as usual). `status` must be a status
 * a `Response` can carry (200 to 599), as with `new Response`.
 */
export function fastResponse(
  status: number,
  headers: HeaderPair[],
  body: string | Uint8Array | null,
): Response {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
  }
  // The body type as srvx declares it: BodyInit of the program's lib, whose DOM version takes only
  // ArrayBuffer-backed views (TS2345 for a Uint8Array<ArrayBufferLike> in a consumer with lib DOM).
  return new FastResponse(body as ConstructorParameters<typeof FastResponse>[0], {
    status,
    headers,
  }) as Response;
}
