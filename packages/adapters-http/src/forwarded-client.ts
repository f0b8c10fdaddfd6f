import { parseIpRange } from "@keyward/core/web";
import { isTrustedProxyAddress, MAX_PROXY_HOPS, type TrustedProxies } from "./trusted-proxies.js";

/** What the forwarded-header walk reads from a request. */
export interface ForwardedRequest {
  /** The socket peer's address; '' when the runtime does not know it (then no header counts). */
  readonly peer: string;
  /** The X-Forwarded-For header (repeated headers joined with `, `), or null. */
  readonly forwardedFor: string | null;
  /** The X-Forwarded-Proto header, or null. */
  readonly forwardedProto: string | null;
}

/** The client as the trusted proxies describe it. */
export interface ForwardedClient {
  /** The client's address: the socket peer unless trusted proxies forwarded another. */
  readonly address: string;
  /** The scheme the client used according to a trusted proxy; undefined: take the socket's. */
  readonly protocol: "http" | "https" | undefined;
}

/** Longest X-Forwarded-For entry read (`[ffff:…:255.255.255.255]:65535` is 55 characters). */
const MAX_ENTRY_LENGTH = 64;
const COMMA = 44;
const PORT = /^:\d{1,5}$/;
const ADDRESS_CHARS = /^[0-9A-Fa-f:.]+$/;

/**
 * Finds the client behind trusted proxies, as mature servers do (nginx's realip, proxy-addr):
 * headers count only when the socket peer is itself trusted; X-Forwarded-For is walked from the
 * right (each proxy appends the address it saw) and the client is the first entry that is not a
 * trusted proxy, or with a hop count `n` the `n`th entry from the right. Everything left of the
 * client is whatever the client sent and is never read. The walk stops at a malformed entry
 * (a name, `unknown`, a CIDR, a zone, an over-long entry) and keeps the last good address, and it
 * reads at most 32 entries of 64 characters whatever the header's size. X-Forwarded-Proto is read
 * the same way: the value at the client's position from the right (its left-most value when
 * proxies overwrote rather than appended); anything but `http`/`https` is ignored.
 */
export function forwardedClient(request: ForwardedRequest, trust: TrustedProxies): ForwardedClient {
  const { peer } = request;
  const direct: ForwardedClient = { address: peer, protocol: undefined };
  if (trust.kind === "none" || peer === "") return direct;
  if (trust.kind === "ranges" && !isTrustedProxyAddress(trust, peer)) return direct;
  const limit = trust.kind === "hops" ? trust.hops : MAX_PROXY_HOPS;
  let address = peer;
  let position = 0; // entries from the right; 0 = the peer itself
  for (const entry of entriesFromRight(request.forwardedFor, limit)) {
    const candidate = entry === null ? null : addressOf(entry);
    if (candidate === null) break;
    address = candidate;
    position++;
    if (trust.kind === "ranges" && !isTrustedProxyAddress(trust, candidate)) break;
  }
  return { address, protocol: protocolAt(request.forwardedProto, Math.max(1, position)) };
}

/** Up to `max` comma-separated entries, right-most first; an over-long entry is null and ends the list. */
function entriesFromRight(header: string | null, max: number): (string | null)[] {
  const out: (string | null)[] = [];
  if (header === null || header === "") return out;
  let end = header.length;
  while (out.length < max) {
    const stop = Math.max(-1, end - MAX_ENTRY_LENGTH - 2);
    let i = end - 1;
    while (i > stop && header.charCodeAt(i) !== COMMA) i--;
    if (i === stop && stop >= 0) {
      out.push(null);
      break;
    }
    out.push(header.slice(i + 1, end));
    if (i < 0) break;
    end = i;
  }
  return out;
}

/** An entry's address (`1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:443`), or null. */
function addressOf(entry: string): string | null {
  const text = entry.trim();
  if (text === "" || text.length > MAX_ENTRY_LENGTH) return null;
  let host = text;
  if (text.charCodeAt(0) === 91 /* [ */) {
    const close = text.indexOf("]");
    if (close < 0 || !validPort(text.slice(close + 1))) return null;
    host = text.slice(1, close);
    if (!host.includes(":")) return null; // brackets are for IPv6 only
  } else {
    const colon = text.indexOf(":");
    if (colon >= 0 && text.indexOf(":", colon + 1) < 0) {
      // Exactly one colon: an IPv4 address with a port (an IPv6 address has at least two).
      if (!validPort(text.slice(colon))) return null;
      host = text.slice(0, colon);
    }
  }
  if (!ADDRESS_CHARS.test(host) || typeof parseIpRange(host) === "string") return null;
  return host.toLowerCase();
}

function validPort(rest: string): boolean {
  return rest === "" || (PORT.test(rest) && Number(rest.slice(1)) <= 65535);
}

/** The X-Forwarded-Proto value written by the proxy at `position` from the right (clamped to the left-most). */
function protocolAt(header: string | null, position: number): "http" | "https" | undefined {
  const values = entriesFromRight(header, position);
  const value = values[Math.min(position, values.length) - 1];
  if (value === null || value === undefined) return undefined;
  const scheme = value.trim().toLowerCase();
  return scheme === "https" || scheme === "http" ? scheme : undefined;
}
