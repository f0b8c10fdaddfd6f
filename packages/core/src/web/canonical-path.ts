/**
 * Printable ASCII a canonical path carries raw; every other byte is a `%XX` escape. It is what
 * survives WHATWG path serialisation (h3's `event.url.pathname`), with `^` raw, and never `%`
 * (always an escape), `/` (a separator, so `%2F` stays data) or `\` (a separator to WHATWG).
 */
const RAW = new Uint8Array(128);
/** RAW, for HttpExchange's inline fast path (1: the byte stands raw in a canonical path). Internal to the web model. */
export const CANONICAL_RAW: Readonly<Uint8Array> = RAW;
for (let c = 0x21; c < 0x7f; c++) RAW[c] = 1;
for (const ch of '"#%/<>?\\`{}') RAW[ch.charCodeAt(0)] = 0;

const SLASH = 47;
const PERCENT = 37;
const HEX = "0123456789ABCDEF";

/**
 * THE canonical form of a request path, computed once where an HttpExchange is made, so the request
 * firewall, chain and rule matchers, the URL PDP, the exact-path filters and the route table all
 * compare one string. Every byte that may stand raw stands raw (`/%61dmin` is `/admin`, `%7e` is
 * `~`), every other byte is an upper-case escape (`%c3%a9` is `%C3%A9`, a raw `é` is `%C3%A9`, a `%`
 * without two hex digits is `%25`), and trailing slashes are removed (`/admin/` is `/admin`; `/`
 * stays). Two paths are equal here exactly when their segments decode to the same bytes, so a
 * literal pattern and a decoded route parameter cannot disagree. Case, dots and empty segments are
 * kept as they are: `/ADMIN` and `/admin.` are other paths, and `//`, dot segments and encoded
 * separators are the request firewall's to refuse. Idempotent.
 */
export function canonicalPath(path: string): string {
  return isCanonical(path, false) ? path : canonicalise(path, false);
}

/**
 * A path pattern with its literal text in canonical path form (see canonicalPath): escapes and raw
 * bytes as a canonical path has them, trailing slashes removed (`/orders/` means `/orders`); `*`, `?`
 * and `{...}` variables (regexes included) are left exactly as written. Patterns compile from this,
 * so a pattern matches the canonical paths its author meant.
 */
export function canonicalPathPattern(pattern: string): string {
  return isCanonical(pattern, true) ? pattern : canonicalise(pattern, true);
}

/** The fast path: a string that needs no rewriting (the common case for every request). */
function isCanonical(text: string, pattern: boolean): boolean {
  const len = text.length;
  if (len > 1 && text.charCodeAt(len - 1) === SLASH) return false;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === SLASH || (c < 128 && RAW[c] === 1)) continue;
    if (pattern && (c === 63 || c === 123 || c === 125)) continue; // ? { }: pattern syntax
    return false;
  }
  return true;
}

function canonicalise(text: string, pattern: boolean): string {
  let out = "";
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (pattern && c === 123) {
      // A `{name:regex}` variable is copied verbatim: its text is a regex, not a path.
      const close = closingBrace(text, i);
      const end = close === -1 ? text.length - 1 : close;
      out += text.slice(i, end + 1);
      i = end;
    } else if (pattern && (c === 63 || c === 125)) {
      out += text[i];
    } else if (c === PERCENT) {
      const byte = hexByte(text, i + 1);
      if (byte === -1) out += "%25";
      else {
        out += byte < 128 && RAW[byte] === 1 ? String.fromCharCode(byte) : percentByte(byte);
        i += 2;
      }
    } else if (c === SLASH || (c < 128 && RAW[c] === 1)) {
      out += text[i];
    } else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      // A lone surrogate has no UTF-8 form; it becomes U+FFFD, as a URL parser would make it.
      out += utf8Escapes(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
    }
  }
  let end = out.length;
  while (end > 1 && out.charCodeAt(end - 1) === SLASH) end--;
  return out.slice(0, end);
}

/** The index of the `}` closing the `{` at `open` (nesting and `\` escapes honoured), or -1. */
export function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j;
  }
  return -1;
}

function hexByte(text: string, at: number): number {
  const hi = hexDigit(text.charCodeAt(at));
  const lo = hexDigit(text.charCodeAt(at + 1));
  return hi === -1 || lo === -1 ? -1 : hi * 16 + lo;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function percentByte(byte: number): string {
  return `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

function utf8Escapes(cp: number): string {
  if (cp < 0x80) return percentByte(cp);
  if (cp < 0x800) return percentByte(0xc0 | (cp >> 6)) + percentByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return (
      percentByte(0xe0 | (cp >> 12)) + percentByte(0x80 | ((cp >> 6) & 63)) + percentByte(0x80 | (cp & 63))
    );
  }
  return (
    percentByte(0xf0 | (cp >> 18)) +
    percentByte(0x80 | ((cp >> 12) & 63)) +
    percentByte(0x80 | ((cp >> 6) & 63)) +
    percentByte(0x80 | (cp & 63))
  );
}
