import { describe, expect, it } from "vitest";
import { type IpRange, ipRangeContains, parseIpRange } from "./ip-range.js";

function range(text: string): IpRange {
  const parsed = parseIpRange(text);
  if (typeof parsed === "string") throw new Error(`${text}: ${parsed}`);
  return parsed;
}

describe("parseIpRange", () => {
  it.each([
    ["10.0.0.0/8", 104],
    ["0.0.0.0/0", 96],
    ["1.2.3.4/32", 128],
    ["1.2.3.4", 128],
    ["::/0", 0],
    ["::", 128],
    ["::1", 128],
    ["::1/128", 128],
    ["2001:db8::/32", 32],
    ["2001:DB8::/32", 32],
    ["::ffff:10.0.0.0/104", 104],
    ["fe80::/10", 10],
    ["1:2:3:4:5:6:7:8", 128],
    ["1::", 128],
    ["1:2:3:4:5:6:7::", 128],
    ["::2:3:4:5:6:7:8", 128],
    ["1:2:3:4:5:6:1.2.3.4", 128],
    ["::1.2.3.4", 128],
  ])("accepts %s (prefix %i in the 128-bit space)", (text, prefix) => {
    expect(range(text).prefix).toBe(prefix);
  });

  it.each([
    ["", "invalid IPv4 address"],
    ["localhost", "invalid IPv4 address"],
    ["10.0.0.0/33", "invalid prefix length: expected 0..32"],
    ["::/129", "invalid prefix length: expected 0..128"],
    ["10.0.0.0/", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/08", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/-1", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/+8", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/ 8", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/8/8", "invalid prefix length: expected 0..32"],
    ["10.0.0.0/1e1", "invalid prefix length: expected 0..32"],
    ["::/1000", "invalid prefix length: expected 0..128"],
    ["10.0.0/8", "invalid IPv4 address"],
    ["10.0.0.0.0", "invalid IPv4 address"],
    ["256.0.0.1", "invalid IPv4 address"],
    ["01.0.0.1", "invalid IPv4 address"],
    ["1.2.3.4 ", "invalid IPv4 address"],
    [" 1.2.3.4", "invalid IPv4 address"],
    ["1..2.3", "invalid IPv4 address"],
    ["1.2.3.4.", "invalid IPv4 address"],
    ["１.2.3.4", "invalid IPv4 address"],
    [":::", "invalid IPv6 address"],
    [":", "invalid IPv6 address"],
    ["1:::2", "invalid IPv6 address"],
    ["1::2::3", "invalid IPv6 address"],
    ["12345::", "invalid IPv6 address"],
    ["1:2:3:4:5:6:7:8:9", "invalid IPv6 address"],
    ["1:2:3:4:5:6:7", "invalid IPv6 address"],
    [":1", "invalid IPv6 address"],
    ["1:", "invalid IPv6 address"],
    ["::1:", "invalid IPv6 address"],
    ["1::2:3:4:5:6:7:8", "invalid IPv6 address"],
    ["fe80::1%eth0", "invalid IPv6 address"],
    ["g::1", "invalid IPv6 address"],
    ["1:2:3:4:5:6:7:1.2.3.4", "invalid IPv6 address"],
    ["::1.2.3", "invalid IPv6 address"],
    ["::1.2.3.4:5", "invalid IPv6 address"],
    ["[::1]", "invalid IPv6 address"],
  ])("refuses %j: %s", (text, reason) => {
    expect(parseIpRange(text)).toBe(reason);
  });
});

describe("ipRangeContains", () => {
  it.each([
    ["10.0.0.0/8", "10.0.0.0", true],
    ["10.0.0.0/8", "10.255.255.255", true],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["10.0.0.0/8", "9.255.255.255", false],
    ["10.0.0.0/8", "::ffff:10.0.0.1", true],
    ["10.0.0.0/8", "::FFFF:10.0.0.1", true],
    ["10.0.0.0/8", "::ffff:a00:1", true],
    ["10.0.0.0/8", "0:0:0:0:0:ffff:10.1.2.3", true],
    ["10.0.0.0/8", "::ffff:11.0.0.1", false],
    ["10.0.0.0/8", "::10.0.0.1", false],
    ["10.0.0.0/8", "2001:db8::1", false],
    ["0.0.0.0/0", "1.2.3.4", true],
    ["0.0.0.0/0", "255.255.255.255", true],
    ["0.0.0.0/0", "::ffff:1.2.3.4", true],
    ["0.0.0.0/0", "::1", false],
    ["192.168.1.7/32", "192.168.1.7", true],
    ["192.168.1.7/32", "192.168.1.8", false],
    ["192.168.1.7", "192.168.1.7", true],
    ["192.168.1.7", "192.168.1.6", false],
    ["10.0.0.1/8", "10.9.9.9", true],
    ["172.16.0.0/12", "172.31.255.255", true],
    ["172.16.0.0/12", "172.32.0.0", false],
    ["127.0.0.1", "::1", false],
    ["::/0", "::1", true],
    ["::/0", "2001:db8::1", true],
    ["::/0", "10.0.0.1", true],
    ["::1/128", "::1", true],
    ["::1/128", "0:0:0:0:0:0:0:1", true],
    ["::1", "::2", false],
    ["::1", "127.0.0.1", false],
    ["2001:db8::/32", "2001:db8:ffff::1", true],
    ["2001:db8::/32", "2001:DB8::1", true],
    ["2001:db8::/32", "2001:db9::", false],
    ["fe80::/10", "fe80::1%eth0", true],
    ["fe80::/10", "febf::1", true],
    ["fe80::/10", "fec0::1", false],
    ["::ffff:10.0.0.0/104", "10.1.2.3", true],
    ["::ffff:10.0.0.0/104", "11.0.0.0", false],
    ["2001:db8::/127", "2001:db8::", true],
    ["2001:db8::/127", "2001:db8::1", true],
    ["2001:db8::/127", "2001:db8::2", false],
    ["10.0.0.0/8", "", false],
    ["10.0.0.0/8", "garbage", false],
    ["10.0.0.0/8", "10.0.0.1:8080", false],
    ["10.0.0.0/8", "010.0.0.1", false],
    ["::/0", "[::1]", false],
    ["::/0", "::1%", true],
  ])("%s contains %j: %s", (cidr, address, expected) => {
    expect(ipRangeContains(range(cidr), address)).toBe(expected);
  });

  it("cuts at exactly the prefix, for every IPv4 prefix length", () => {
    for (let prefix = 1; prefix <= 32; prefix++) {
      const all = range(`255.255.255.255/${prefix}`);
      expect(ipRangeContains(all, ipv4(0xffffffff))).toBe(true);
      // The last bit inside the prefix flipped: outside. The first bit after it flipped: inside.
      expect(ipRangeContains(all, ipv4((0xffffffff ^ (2 ** (32 - prefix))) >>> 0))).toBe(false);
      if (prefix < 32)
        expect(ipRangeContains(all, ipv4((0xffffffff ^ (2 ** (31 - prefix))) >>> 0))).toBe(true);
    }
  });

  it("cuts at exactly the prefix, for every IPv6 prefix length", () => {
    const ones = Array.from({ length: 8 }, () => 0xffff);
    for (let prefix = 1; prefix <= 128; prefix++) {
      const all = range(`${ipv6(ones)}/${prefix}`);
      expect(ipRangeContains(all, ipv6(ones))).toBe(true);
      expect(ipRangeContains(all, ipv6(flip(ones, prefix - 1)))).toBe(false);
      if (prefix < 128) expect(ipRangeContains(all, ipv6(flip(ones, prefix)))).toBe(true);
    }
  });
});

function ipv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join(".");
}

function ipv6(groups: readonly number[]): string {
  return groups.map((g) => g.toString(16)).join(":");
}

/** The groups with bit `index` (0 = most significant) flipped. */
function flip(groups: readonly number[], index: number): number[] {
  const copy = [...groups];
  const group = Math.floor(index / 16);
  copy[group] = (copy[group] as number) ^ (1 << (15 - (index % 16)));
  return copy;
}
