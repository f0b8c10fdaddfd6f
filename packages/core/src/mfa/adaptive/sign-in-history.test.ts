import { describe, expect, it } from "vitest";
import { EMPTY_SIGN_IN_HISTORY, networkOf } from "./sign-in-history.js";

describe("networkOf", () => {
  it("maps IPv4 to its /24", () => {
    expect(networkOf("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOf(" 10.1.2.255 ")).toBe("10.1.2.0/24");
  });

  it("maps IPv4-mapped IPv6 to the IPv4 /24", () => {
    expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:cb00:7107")).toBe("203.0.113.0/24");
  });

  it("maps IPv6 to a canonical /64, whatever the spelling", () => {
    const expected = "2001:db8:0:1::/64";
    for (const a of [
      "2001:db8:0:1::1",
      "2001:0DB8:0000:0001:ffff:0:0:1",
      "[2001:db8:0:1::abcd]",
      "2001:db8::1:0:0:0:5",
      "2001:db8:0:1::1%eth0",
    ]) {
      expect(networkOf(a), a).toBe(expected);
    }
    expect(networkOf("::1")).toBe("0:0:0:0::/64");
    expect(networkOf("2001:db8:0:2::1")).not.toBe(expected);
  });

  it("answers undefined for what is not an IP address", () => {
    for (const a of ["", "unknown", "/tmp/socket", "1.2.3", "300.1.1.1", "2001:db8::1::2", "localhost"]) {
      expect(networkOf(a), a).toBeUndefined();
    }
  });
});

describe("EMPTY_SIGN_IN_HISTORY", () => {
  it("is empty and frozen", () => {
    expect(EMPTY_SIGN_IN_HISTORY).toEqual({
      knownDevices: [],
      knownNetworks: [],
      recentFailures: 0,
      usualHours: [],
      signInCount: 0,
    });
    expect(Object.isFrozen(EMPTY_SIGN_IN_HISTORY.knownDevices)).toBe(true);
  });
});
