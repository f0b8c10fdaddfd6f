import { type IpRange, ipRangeContains, parseIpRange } from "@keyward/core/web";

/**
 * Which peers may tell us the client's address (X-Forwarded-For) and scheme (X-Forwarded-Proto):
 * nobody (the socket peer is the client), the proxies whose addresses lie in `ranges`, or the
 * `hops` proxies nearest to us whatever their addresses.
 */
export type TrustedProxies =
  | { readonly kind: "none" }
  | { readonly kind: "ranges"; readonly ranges: readonly IpRange[] }
  | { readonly kind: "hops"; readonly hops: number };

/** Trust no proxy: forwarded headers are ignored and the socket peer is the client. */
export const NO_TRUSTED_PROXIES: TrustedProxies = Object.freeze({ kind: "none" });

/** Most proxies a hop count may name (a longer chain is a configuration mistake). */
export const MAX_PROXY_HOPS = 32;

/** Named address sets, as proxy-addr (Express) names them. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/**
 * Parses `platform.http.trusted-proxies`: empty (trust none), a hop count `1`..`32`, or a
 * comma-separated list of addresses, CIDRs (IPv4 or IPv6) and the names `loopback`, `linklocal`,
 * `uniquelocal`. Returns the trust or the reason the text is invalid (naming the bad entry).
 */
export function parseTrustedProxies(text: string): TrustedProxies | string {
  const trimmed = text.trim();
  if (trimmed === "") return NO_TRUSTED_PROXIES;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops < 1 || hops > MAX_PROXY_HOPS) {
      return `a hop count must be 1..${MAX_PROXY_HOPS} (empty trusts no proxy)`;
    }
    return Object.freeze({ kind: "hops", hops });
  }
  const ranges: IpRange[] = [];
  for (const raw of trimmed.split(",")) {
    const entry = raw.trim();
    const named = NAMED_RANGES[entry.toLowerCase()];
    for (const cidr of named ?? [entry]) {
      const range = entry === "" ? "empty entry" : parseIpRange(cidr);
      if (typeof range === "string") {
        return `entry ${JSON.stringify(entry)}: ${range}; expected addresses or CIDRs (10.0.0.0/8, ::1), loopback, linklocal, uniquelocal, or one hop count`;
      }
      ranges.push(range);
    }
  }
  return Object.freeze({ kind: "ranges", ranges: Object.freeze(ranges) });
}

/** True when `address` is a proxy the trust names by address (a hop count names none by address). */
export function isTrustedProxyAddress(trust: TrustedProxies, address: string): boolean {
  if (trust.kind !== "ranges" || address === "") return false;
  for (const range of trust.ranges) if (ipRangeContains(range, address)) return true;
  return false;
}
