import { describe, expect, it } from "vitest";
import { type ForwardedClient, forwardedClient } from "./forwarded-client.js";
import { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.js";

function trust(text: string): TrustedProxies {
  const parsed = parseTrustedProxies(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

function client(
  peer: string,
  forwardedFor: string | null,
  trusted: string,
  forwardedProto: string | null = null,
): ForwardedClient {
  return forwardedClient({ peer, forwardedFor, forwardedProto }, trust(trusted));
}

describe("forwardedClient with trusted ranges", () => {
  it("takes the right-most entry that is not a trusted proxy, never the client's own left part", () => {
    // An appending proxy at 10.0.0.1: the client sent "6.6.6.6", the proxy added what it saw.
    expect(client("10.0.0.1", "6.6.6.6, 203.0.113.9", "10.0.0.0/8").address).toBe("203.0.113.9");
    // Two trusted proxies: the inner one appended the outer one's address.
    expect(client("10.0.0.1", "6.6.6.6, 203.0.113.9, 10.0.0.2", "10.0.0.0/8").address).toBe("203.0.113.9");
  });

  it("ignores the headers when the socket peer is not trusted (a client talking to us directly)", () => {
    expect(client("192.0.2.1", "203.0.113.9", "10.0.0.0/8", "https")).toEqual({
      address: "192.0.2.1",
      protocol: undefined,
    });
  });

  it("ignores the headers when nothing is trusted or the peer is unknown", () => {
    expect(client("10.0.0.1", "203.0.113.9", "", "https")).toEqual({
      address: "10.0.0.1",
      protocol: undefined,
    });
    expect(client("", "203.0.113.9", "10.0.0.0/8", "https")).toEqual({ address: "", protocol: undefined });
  });

  it("keeps the peer when a trusted proxy forwards no header", () => {
    expect(client("10.0.0.1", null, "10.0.0.0/8")).toEqual({ address: "10.0.0.1", protocol: undefined });
  });

  it("keeps the left-most address when every entry is a trusted proxy", () => {
    expect(client("10.0.0.1", "10.0.0.3, 10.0.0.2", "10.0.0.0/8").address).toBe("10.0.0.3");
  });

  it("matches IPv4 peers in their IPv4-mapped IPv6 form and IPv6 proxies", () => {
    expect(client("::ffff:127.0.0.1", "203.0.113.9", "loopback").address).toBe("203.0.113.9");
    expect(client("2001:db8::1", "[2001:db8:1::5]:4711, 2001:db8::2", "2001:db8::/48").address).toBe(
      "2001:db8:1::5",
    );
  });

  it("strips ports and brackets and lower-cases IPv6", () => {
    expect(client("10.0.0.1", "203.0.113.9:51234", "10.0.0.0/8").address).toBe("203.0.113.9");
    expect(client("10.0.0.1", "[2001:DB8::7]", "10.0.0.0/8").address).toBe("2001:db8::7");
    expect(client("10.0.0.1", "2001:DB8::7", "10.0.0.0/8").address).toBe("2001:db8::7");
    expect(client("10.0.0.1", "::ffff:203.0.113.9", "10.0.0.0/8").address).toBe("::ffff:203.0.113.9");
  });
});

describe("forwardedClient with a hop count", () => {
  it("takes the nth entry from the right", () => {
    const header = "6.6.6.6, 203.0.113.9, 198.51.100.2";
    expect(client("192.0.2.1", header, "1").address).toBe("198.51.100.2");
    expect(client("192.0.2.1", header, "2").address).toBe("203.0.113.9");
  });

  it("takes the left-most entry when there are fewer than n", () => {
    expect(client("192.0.2.1", "203.0.113.9", "3").address).toBe("203.0.113.9");
    expect(client("192.0.2.1", null, "3").address).toBe("192.0.2.1");
  });
});

describe("forwardedClient: X-Forwarded-Proto follows the same trust", () => {
  it("takes the value of the hop that accepted the client", () => {
    expect(client("10.0.0.1", "203.0.113.9", "10.0.0.0/8", "https").protocol).toBe("https");
    // Outer proxy (TLS) appended "https" for the client, the inner one "http" for the outer one.
    expect(client("10.0.0.1", "203.0.113.9, 10.0.0.2", "10.0.0.0/8", "https, http").protocol).toBe("https");
    expect(client("10.0.0.1", "203.0.113.9, 10.0.0.2", "10.0.0.0/8", "http, https").protocol).toBe("http");
    // The client's own forged value sits left of the proxy's and is not read.
    expect(client("10.0.0.1", "203.0.113.9", "10.0.0.0/8", "https, http").protocol).toBe("http");
    expect(client("10.0.0.1", "203.0.113.9", "10.0.0.0/8", "HTTPS").protocol).toBe("https");
  });

  it("takes the left-most value when proxies overwrote rather than appended", () => {
    expect(client("10.0.0.1", "203.0.113.9, 10.0.0.2", "10.0.0.0/8", "https").protocol).toBe("https");
  });

  it("ignores values other than http and https", () => {
    expect(client("10.0.0.1", "203.0.113.9", "10.0.0.0/8", "ftp").protocol).toBeUndefined();
    expect(client("10.0.0.1", "203.0.113.9", "10.0.0.0/8", "").protocol).toBeUndefined();
  });

  it("is read from a trusted peer even without X-Forwarded-For", () => {
    expect(client("10.0.0.1", null, "10.0.0.0/8", "https").protocol).toBe("https");
    expect(client("192.0.2.1", null, "10.0.0.0/8", "https").protocol).toBeUndefined();
  });
});
