import { createHash } from "node:crypto";
import { usernameKey } from "../users/username-key.js";
import type { ThrottleKey } from "./login-throttle.js";

/**
 * The address a throttle counts by. IPv4 addresses count as themselves; an IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, what a dual-stack socket reports) counts as its IPv4 address; any other IPv6
 * address counts as its /64 network (`2001:db8:0:1::/64`), because one subscriber usually holds a whole
 * /64 and could otherwise draw a fresh address for every guess. Brackets and a zone (`%eth0`) are
 * dropped. Text that is not an IP address is only trimmed and lower-cased.
 */
export function throttleAddressKey(remoteAddress: string): string {
  let address = remoteAddress.trim().toLowerCase();
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  const groups = parseIpv6(address);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  }
  return `${[g0, g1, g2, g3].map((g) => g.toString(16)).join(":")}::/64`;
}

/** The two storage keys of one attempt: its (account, address) counter and its address counter. */
export interface ThrottleStorageKeys {
  /** `a:` + base64url SHA-256 of the username key and the address key. */
  accountAndIp: string;
  /** `i:` + base64url SHA-256 of the address key. */
  ip: string;
  /** `u:` + base64url SHA-256 of the username key: stored with the pair counter so an unlock finds them all. */
  account: string;
}

/**
 * The keys every LoginThrottle adapter stores counters under. Hashed, so a key is 45 characters
 * whatever was submitted (bounded memory, within any database's index-key limit) and the store holds
 * no plain usernames; unsalted, because the keys only need to be stable, not secret.
 */
export function throttleKeys(key: ThrottleKey): ThrottleStorageKeys {
  const address = throttleAddressKey(key.remoteAddress);
  return {
    accountAndIp: `a:${sha256(JSON.stringify([usernameKey(key.username), address]))}`,
    ip: `i:${sha256(JSON.stringify([address]))}`,
    account: throttleAccountKey(key.username),
  };
}

/** The account key of `username` (see ThrottleStorageKeys.account). */
export function throttleAccountKey(username: string): string {
  return `u:${sha256(JSON.stringify([usernameKey(username)]))}`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted quad), or undefined. */
function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(":")) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const parts = halves.length === 2 ? tail : head;
  const last = parts[parts.length - 1];
  if (last?.includes(".")) {
    const quad = IPV4.exec(last);
    if (!quad) return undefined;
    const bytes = quad.slice(1).map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    const [b0, b1, b2, b3] = bytes as [number, number, number, number];
    parts.splice(parts.length - 1, 1, ((b0 << 8) | b1).toString(16), ((b2 << 8) | b3).toString(16));
  }
  const groups = [...head, ...(halves.length === 2 ? tail : [])];
  if (!groups.every((g) => HEX_GROUP.test(g))) return undefined;
  const missing = 8 - groups.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const values = groups.map((g) => Number.parseInt(g, 16));
  if (halves.length === 1) return values;
  return [
    ...values.slice(0, head.length),
    ...new Array<number>(missing).fill(0),
    ...values.slice(head.length),
  ];
}
