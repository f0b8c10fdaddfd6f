import { describe, expect, it } from "vitest";
import { isTrustedProxyAddress, parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.js";

function trust(text: string): TrustedProxies {
  const parsed = parseTrustedProxies(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

describe("parseTrustedProxies", () => {
  it("reads empty as no trust and digits as a hop count", () => {
    expect(trust("")).toEqual({ kind: "none" });
    expect(trust("  ")).toEqual({ kind: "none" });
    expect(trust("1")).toEqual({ kind: "hops", hops: 1 });
    expect(trust(" 32 ")).toEqual({ kind: "hops", hops: 32 });
  });

  it("refuses hop counts outside 1..32", () => {
    expect(parseTrustedProxies("0")).toMatch(/hop count must be 1\.\.32/);
    expect(parseTrustedProxies("33")).toMatch(/hop count must be 1\.\.32/);
  });

  it("reads addresses, CIDRs and named sets", () => {
    const t = trust("10.0.0.0/8, 2001:db8::/32 ,192.0.2.7,loopback");
    expect(t.kind).toBe("ranges");
    for (const address of ["10.1.2.3", "::ffff:10.1.2.3", "2001:db8::1", "192.0.2.7", "127.0.0.1", "::1"]) {
      expect(isTrustedProxyAddress(t, address), address).toBe(true);
    }
    for (const address of ["11.0.0.1", "192.0.2.8", "2001:db9::1", "", "garbage"]) {
      expect(isTrustedProxyAddress(t, address), address).toBe(false);
    }
    const local = trust("uniquelocal, linklocal");
    for (const address of ["172.16.0.1", "192.168.1.1", "fd00::1", "169.254.1.1", "fe80::1"]) {
      expect(isTrustedProxyAddress(local, address), address).toBe(true);
    }
    expect(isTrustedProxyAddress(local, "127.0.0.1")).toBe(false);
  });

  it("names the bad entry", () => {
    expect(parseTrustedProxies("10.0.0.0/8, proxy.internal")).toMatch(
      /entry "proxy\.internal": invalid IPv4/,
    );
    expect(parseTrustedProxies("10.0.0.0/33")).toMatch(/invalid prefix length/);
    expect(parseTrustedProxies("10.0.0.1,,10.0.0.2")).toMatch(/entry "": empty entry/);
    expect(parseTrustedProxies("1, 10.0.0.1")).toMatch(/entry "1"/);
  });

  it("matches nobody by address with a hop count or no trust", () => {
    expect(isTrustedProxyAddress(trust("2"), "127.0.0.1")).toBe(false);
    expect(isTrustedProxyAddress(trust(""), "127.0.0.1")).toBe(false);
  });
});
