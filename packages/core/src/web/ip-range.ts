/**
 * IPv4 and IPv6 CIDR ranges for `hasIpAddress` and the HTTP binding's trusted proxies. Written here
 * rather than taken from npm: the core wants no dependency for ~150 lines, the compiler needs a
 * precise reason for a bad literal, and matching must not allocate per request (node:net's
 * BlockList would also tie the core to Node).
 *
 * Every address lives in the 128-bit IPv6 space: an IPv4 address is its IPv4-mapped form
 * `::ffff:a.b.c.d`, and an IPv4 CIDR `a.b.c.d/p` is `::ffff:a.b.c.d/(96+p)`. So `10.0.0.0/8` matches
 * the remote address `::ffff:10.0.0.1`, `::ffff:10.0.0.0/104` matches `10.0.0.1`, and `::/0` matches
 * every address, IPv4 included. Host bits set in a CIDR (`10.0.0.1/8`) are masked off, as most
 * matchers do. Dotted quads must have four decimal parts without leading zeros (no octal ambiguity).
 */

/** A parsed range: network and mask as four signed 32-bit words, most significant first. */
export interface IpRange {
  readonly network: Int32Array;
  readonly mask: Int32Array;
  /** Prefix length in the 128-bit space. */
  readonly prefix: number;
}

const COLON = 58;
const DOT = 46;
const GROUPS = new Uint16Array(8);
const ADDRESS = new Uint32Array(4);

/** Parses `address` or `address/prefix`; returns the range or the reason it is invalid. */
export function parseIpRange(text: string): IpRange | string {
  const slash = text.indexOf("/");
  const end = slash < 0 ? text.length : slash;
  const colon = text.indexOf(":");
  const v6 = colon >= 0 && colon < end;
  if (!(v6 ? parseIpv6(text, 0, end, ADDRESS) : parseIpv4Into(text, 0, end, ADDRESS))) {
    return `invalid ${v6 ? "IPv6" : "IPv4"} address`;
  }
  const max = v6 ? 128 : 32;
  let prefix = max;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (!/^(0|[1-9][0-9]{0,2})$/.test(digits) || Number(digits) > max) {
      return `invalid prefix length: expected 0..${max}`;
    }
    prefix = Number(digits);
  }
  const bits = v6 ? prefix : 96 + prefix;
  const mask = new Int32Array(4);
  const network = new Int32Array(4);
  for (let w = 0; w < 4; w++) {
    const inWord = bits - 32 * w;
    mask[w] = inWord >= 32 ? -1 : inWord <= 0 ? 0 : -1 << (32 - inWord);
    network[w] = (ADDRESS[w] as number) & (mask[w] as number);
  }
  return { network, mask, prefix: bits };
}

/**
 * True when `address` (IPv4, IPv6, IPv4-mapped IPv6; an IPv6 zone `%eth0` is ignored) lies in `range`.
 * An address that does not parse matches nothing.
 */
export function ipRangeContains(range: IpRange, address: string): boolean {
  let end = address.length;
  const v6 = address.indexOf(":") >= 0;
  if (v6) {
    const zone = address.indexOf("%");
    if (zone >= 0) end = zone;
  }
  if (!(v6 ? parseIpv6(address, 0, end, ADDRESS) : parseIpv4Into(address, 0, end, ADDRESS))) return false;
  const { network, mask } = range;
  for (let w = 0; w < 4; w++) {
    if (((ADDRESS[w] as number) & (mask[w] as number)) !== network[w]) return false;
  }
  return true;
}

/** A dotted quad as an unsigned 32-bit number, or -1. */
function parseIpv4(s: string, start: number, end: number): number {
  let value = 0;
  let parts = 0;
  let i = start;
  while (parts < 4) {
    const partStart = i;
    let part = 0;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      part = part * 10 + (c - 48);
      i++;
    }
    const digits = i - partStart;
    if (digits === 0 || digits > 3 || part > 255 || (digits > 1 && s.charCodeAt(partStart) === 48)) return -1;
    value = value * 256 + part;
    parts++;
    if (parts < 4) {
      if (i >= end || s.charCodeAt(i) !== DOT) return -1;
      i++;
    }
  }
  return i === end ? value : -1;
}

function parseIpv4Into(s: string, start: number, end: number, out: Uint32Array): boolean {
  const value = parseIpv4(s, start, end);
  if (value < 0) return false;
  out[0] = 0;
  out[1] = 0;
  out[2] = 0xffff;
  out[3] = value;
  return true;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** RFC 4291 text form (`::` once, 1-4 hex digits a group, an optional dotted-quad tail) into four words. */
function parseIpv6(s: string, start: number, end: number, out: Uint32Array): boolean {
  let count = 0;
  let gap = -1;
  let i = start;
  if (i < end && s.charCodeAt(i) === COLON) {
    if (s.charCodeAt(i + 1) !== COLON || i + 1 >= end) return false;
    gap = 0;
    i += 2;
  } else if (i === end) {
    return false;
  }
  while (i < end) {
    if (count >= 8) return false;
    let j = i;
    let group = 0;
    while (j < end) {
      const h = hexValue(s.charCodeAt(j));
      if (h < 0) break;
      if (j - i === 4) return false;
      group = group * 16 + h;
      j++;
    }
    if (j < end && s.charCodeAt(j) === DOT) {
      const v4 = count <= 6 ? parseIpv4(s, i, end) : -1;
      if (v4 < 0) return false;
      GROUPS[count++] = v4 >>> 16;
      GROUPS[count++] = v4 & 0xffff;
      break;
    }
    if (j === i || (j < end && s.charCodeAt(j) !== COLON)) return false;
    GROUPS[count++] = group;
    i = j;
    if (i === end) break;
    i++; // the colon
    if (i === end) return false;
    if (s.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false;
  if (gap >= 0) {
    const missing = 8 - count;
    for (let k = count - 1; k >= gap; k--) GROUPS[k + missing] = GROUPS[k] as number;
    for (let k = gap; k < gap + missing; k++) GROUPS[k] = 0;
  }
  for (let w = 0; w < 4; w++) {
    out[w] = (((GROUPS[2 * w] as number) << 16) | (GROUPS[2 * w + 1] as number)) >>> 0;
  }
  return true;
}
