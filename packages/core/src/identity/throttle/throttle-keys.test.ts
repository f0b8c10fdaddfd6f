import { describe, expect, it } from "vitest";
import { throttleAddressKey, throttleKeys } from "./throttle-keys.js";

describe("throttleAddressKey", () => {
  it("keeps IPv4 addresses as they are", () => {
    expect(throttleAddressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(throttleAddressKey(" 203.0.113.7 ")).toBe("203.0.113.7");
  });

  it("maps IPv4-mapped IPv6 addresses to IPv4, in both notations", () => {
    expect(throttleAddressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(throttleAddressKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(throttleAddressKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("reduces IPv6 addresses to their /64, whatever the notation", () => {
    const expected = "2001:db8:0:1::/64";
    for (const address of [
      "2001:db8:0:1::1",
      "2001:0DB8:0000:0001:ffff:ffff:ffff:ffff",
      "[2001:db8:0:1::abcd]",
      "2001:db8::1:0:0:0:1",
      "2001:db8:0:1::1%eth0",
      "2001:db8:0:1:0:0:192.0.2.1",
    ]) {
      expect(throttleAddressKey(address), address).toBe(expected);
    }
    expect(throttleAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(throttleAddressKey("::")).toBe("0:0:0:0::/64");
  });

  it("leaves text that is not an address trimmed and lower-cased", () => {
    for (const text of [
      "unknown",
      "1:2:3",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "12345::",
      "::1.2.3.999",
      ":::",
    ]) {
      expect(throttleAddressKey(text), text).toBe(text.toLowerCase());
    }
    expect(throttleAddressKey(" Unknown ")).toBe("unknown");
  });
});

describe("throttleKeys", () => {
  it("derives short, prefixed keys that depend on the username key and the address key", () => {
    const keys = throttleKeys({ username: "Alice", remoteAddress: "::ffff:192.0.2.1" });
    expect(keys.accountAndIp).toMatch(/^a:[A-Za-z0-9_-]{43}$/);
    expect(keys.ip).toMatch(/^i:[A-Za-z0-9_-]{43}$/);
    expect(throttleKeys({ username: " ALICE", remoteAddress: "192.0.2.1" })).toEqual(keys);
    expect(throttleKeys({ username: "bob", remoteAddress: "192.0.2.1" }).ip).toBe(keys.ip);
    expect(throttleKeys({ username: "bob", remoteAddress: "192.0.2.1" }).accountAndIp).not.toBe(
      keys.accountAndIp,
    );
    expect(throttleKeys({ username: "alice", remoteAddress: "192.0.2.2" }).accountAndIp).not.toBe(
      keys.accountAndIp,
    );
  });
});
