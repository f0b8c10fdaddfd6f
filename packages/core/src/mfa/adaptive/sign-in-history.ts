import { isIPv4, isIPv6 } from "node:net";

/**
 * What the platform remembers of one user's past sign-ins, as a RiskAnalyzer reads it. Lists are
 * most recent first; everything is frozen.
 */
export interface SignInHistory {
  /** Device ids (server-issued device cookies) of the last completed sign-ins, at most 20. */
  readonly knownDevices: readonly string[];
  /** Networks of the last completed sign-ins (`networkOf`: /24 for IPv4, /64 for IPv6), at most 20. */
  readonly knownNetworks: readonly string[];
  /** Failed primary sign-ins of this user in the last 15 minutes (saturates at the store's cap). */
  readonly recentFailures: number;
  /** UTC hours (0..23, ascending) in which the user completed a sign-in before. */
  readonly usualHours: readonly number[];
  /**
   * How many sign-ins were recorded in total. Not in the sketch, but an analyzer needs it to
   * tell "no history" from "history without device ids" and to trust `usualHours` only after a few.
   */
  readonly signInCount: number;
}

/** The history of a user the platform has never seen sign in. */
export const EMPTY_SIGN_IN_HISTORY: SignInHistory = Object.freeze({
  knownDevices: Object.freeze([]),
  knownNetworks: Object.freeze([]),
  recentFailures: 0,
  usualHours: Object.freeze([]),
  signInCount: 0,
});

/**
 * The network an address belongs to, as history stores and compares it: `203.0.113.0/24` for IPv4
 * (IPv4-mapped IPv6 included) and `2001:db8:0:1::/64` for IPv6 (lower case, no leading zeros, zone
 * dropped). Undefined for anything that is not an IP address (a Unix socket, `unknown`), which an
 * analyzer treats as a network it has not seen.
 */
export function networkOf(address: string): string | undefined {
  let text = address.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (isIPv4(text)) return ipv4Network(text);
  if (!isIPv6(text)) return undefined;
  const hextets = expandIpv6(text.toLowerCase());
  if (hextets === undefined) return undefined;
  const mapped = hextets.slice(0, 6).join(":") === "0:0:0:0:0:ffff";
  if (mapped) {
    const hi = Number.parseInt(hextets[6] ?? "0", 16);
    const lo = Number.parseInt(hextets[7] ?? "0", 16);
    return ipv4Network(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return `${hextets.slice(0, 4).join(":")}::/64`;
}

function ipv4Network(address: string): string {
  const [a, b, c] = address.split(".");
  return `${Number(a)}.${Number(b)}.${Number(c)}.0/24`;
}

/** Eight hextets without leading zeros; an embedded dotted IPv4 tail becomes two hextets. */
function expandIpv6(address: string): string[] | undefined {
  const [head = "", tail, extra] = address.split("::");
  if (extra !== undefined) return undefined;
  const parse = (part: string): string[] => {
    if (part === "") return [];
    const groups = part.split(":");
    const last = groups[groups.length - 1] ?? "";
    if (last.includes(".")) {
      const [a, b, c, d] = last.split(".").map(Number);
      groups.splice(
        -1,
        1,
        (((a ?? 0) << 8) | (b ?? 0)).toString(16),
        (((c ?? 0) << 8) | (d ?? 0)).toString(16),
      );
    }
    return groups.map((g) => Number.parseInt(g, 16).toString(16));
  };
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right];
}
