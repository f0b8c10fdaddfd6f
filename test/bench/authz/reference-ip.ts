/** The bench's own address parsing for `hasIpAddress`: 4 or 16 bytes, IPv4-mapped IPv6 read as IPv4. */
export interface ReferenceAddress {
  readonly bytes: readonly number[];
}

/** Parses an IPv4, IPv6 (`::`, embedded IPv4, `[…]`, `%zone`) or IPv4-mapped address; undefined if malformed. */
export function parseReferenceAddress(text: string): ReferenceAddress | undefined {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  if (!s.includes(":")) {
    const v4 = parseV4(s);
    return v4 && { bytes: v4 };
  }
  const v6 = parseV6(s);
  if (!v6) return undefined;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return { bytes: mapped ? v6.slice(12) : v6 };
}

/** True when `address` lies in `range` (`10.0.0.0/8`, `2001:db8::/32`, or one address); families must agree. */
export function referenceIpInRange(address: string, range: string): boolean {
  const slash = range.indexOf("/");
  const network = parseReferenceAddress(slash === -1 ? range : range.slice(0, slash));
  const remote = parseReferenceAddress(address);
  if (!network || !remote || network.bytes.length !== remote.bytes.length) return false;
  const bits = slash === -1 ? network.bytes.length * 8 : Number(range.slice(slash + 1));
  if (!Number.isInteger(bits) || bits < 0 || bits > network.bytes.length * 8) return false;
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((network.bytes[byte] ?? 0) & mask) !== ((remote.bytes[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function parseV4(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseV6(s: string): number[] | undefined {
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (!head || !tail) return undefined;
  const total = head.length + tail.length;
  if (halves.length === 1 ? total !== 16 : total > 14) return undefined;
  return [...head, ...new Array<number>(16 - total).fill(0), ...tail];
}

/** Colon-separated hex groups (the last may be dotted IPv4), as bytes. */
function groups(s: string): number[] | undefined {
  if (s === "") return [];
  const parts = s.split(":");
  const out: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseV4(part);
      if (!v4) return undefined;
      out.push(...v4);
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
      const n = Number.parseInt(part, 16);
      out.push(n >> 8, n & 0xff);
    }
  }
  return out;
}
