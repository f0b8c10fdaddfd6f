import { describe, expect, it } from "vitest";
import { forwardedClient } from "./forwarded-client.js";
import { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.js";

function trust(text: string): TrustedProxies {
  const parsed = parseTrustedProxies(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

const RANGES = trust("10.0.0.0/8");
const address = (forwardedFor: string, t: TrustedProxies = RANGES, peer = "10.0.0.1") =>
  forwardedClient({ peer, forwardedFor, forwardedProto: null }, t).address;

describe("forwardedClient: a client cannot choose its own address", () => {
  it("any number of invented entries left of the proxy's own entry changes nothing", () => {
    for (let i = 0; i < 60; i++) expect(address(`198.18.0.${i}, 203.0.113.9`)).toBe("203.0.113.9");
  });

  it("a client that claims a trusted proxy's address is still seen at the hop that met it", () => {
    // The client put 10.9.9.9 (trusted) in front; the walk passes it only because the proxy's
    // own entry (203.0.113.9) stops it first.
    expect(address("10.9.9.9, 203.0.113.9")).toBe("203.0.113.9");
  });

  it.each([
    ["unknown"],
    ["_hidden"],
    ["proxy.internal"],
    ["10.0.0.0/8"],
    ["fe80::1%eth0"],
    ["[203.0.113.9]"],
    ["[2001:db8::1"],
    ["[2001:db8::1]:99999"],
    ["203.0.113.9:"],
    ["203.0.113.9:http"],
    ["1.2.3"],
    ["01.2.3.4"],
    ["256.1.1.1"],
    ["1:2:3:4:5:6:7:8:9"],
    ["\u00e9\u00e9"],
    [""],
  ])("stops at the malformed entry %j and keeps the trusted hop before it", (entry) => {
    expect(address(`6.6.6.6, ${entry}`)).toBe("10.0.0.1");
    expect(address(`6.6.6.6, ${entry}, 10.0.0.7`)).toBe("10.0.0.7");
    expect(address(`${entry}`, trust("1"))).toBe("10.0.0.1");
  });

  it("stops at an over-long entry without reading it", () => {
    expect(address(`6.6.6.6, ${"1".repeat(100_000)}`)).toBe("10.0.0.1");
    expect(address(`${"9".repeat(100_000)}, 203.0.113.9`)).toBe("203.0.113.9");
  });

  it("reads at most 32 entries of a huge header (all trusted: the 32nd from the right)", () => {
    const entries = Array.from(
      { length: 5_000 },
      (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    );
    expect(address(entries.join(","))).toBe(entries[entries.length - 32]);
    expect(address(",".repeat(100_000))).toBe("10.0.0.1");
  });

  it("a hop count never reads past its hop", () => {
    expect(address("6.6.6.6, 203.0.113.9, 198.51.100.2", trust("2"))).toBe("203.0.113.9");
    expect(address("6.6.6.6, garbage, 198.51.100.2", trust("2"))).toBe("198.51.100.2");
  });

  it("ignores a hostile X-Forwarded-Proto", () => {
    const proto = (forwardedProto: string) =>
      forwardedClient({ peer: "10.0.0.1", forwardedFor: "203.0.113.9", forwardedProto }, RANGES).protocol;
    expect(proto("x".repeat(100_000))).toBeUndefined();
    expect(proto(",".repeat(100_000))).toBeUndefined();
    expect(proto("javascript")).toBeUndefined();
  });
});
