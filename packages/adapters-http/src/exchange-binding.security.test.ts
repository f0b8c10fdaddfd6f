import { afterAll, describe, expect, it } from "vitest";
import { rawGet, rawRequest, startTestServer, type TestServer } from "./test-support.js";

// The remote address and scheme the exchange gets over a real socket. The test client connects
// from 127.0.0.1, so with `loopback` trusted it plays an appending proxy (nginx's
// $proxy_add_x_forwarded_for): the right-most X-Forwarded-For entry is the address it saw.

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

describe("exchange binding over a socket: remote address and forwarded headers", () => {
  const servers: TestServer[] = [];
  async function serve(trustedProxies?: string): Promise<TestServer> {
    const properties =
      trustedProxies === undefined ? {} : { "platform.http.trusted-proxies": trustedProxies };
    const t = await startTestServer(
      (app) =>
        app.routes.add({
          method: "GET",
          path: "/whoami",
          handler: (ex) => ({ remoteAddress: ex.remoteAddress, secure: ex.secure }),
        }),
      { properties },
    );
    servers.push(t);
    return t;
  }
  async function whoami(t: TestServer, headers: Record<string, string> = {}) {
    const res = await t.fetch("/whoami", { headers });
    expect(res.status).toBe(200);
    return (await res.json()) as { remoteAddress: string; secure: boolean };
  }
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it("uses the socket address and ignores X-Forwarded-* by default", async () => {
    const t = await serve();
    const seen = await whoami(t, {
      "x-forwarded-for": "203.0.113.7, 10.0.0.1",
      "x-forwarded-proto": "https",
    });
    expect(seen.remoteAddress).toMatch(LOOPBACK);
    expect(seen.secure).toBe(false);
  });

  it("behind a trusted appending proxy takes the entry the proxy added, not the client's left-most one", async () => {
    const t = await serve("loopback");
    expect(
      await whoami(t, { "x-forwarded-for": "203.0.113.7, 198.51.100.9", "x-forwarded-proto": "https" }),
    ).toEqual({ remoteAddress: "198.51.100.9", secure: true });
    const direct = await whoami(t);
    expect(direct.remoteAddress).toMatch(LOOPBACK);
    expect(direct.secure).toBe(false);
  });

  it("ignores a spoofed header from a peer that is not a trusted proxy", async () => {
    const t = await serve("10.0.0.0/8, 2001:db8::/32");
    const seen = await whoami(t, { "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" });
    expect(seen.remoteAddress).toMatch(LOOPBACK);
    expect(seen.secure).toBe(false);
  });

  it("with a hop count takes the nth entry from the right", async () => {
    const t = await serve("2");
    const seen = await whoami(t, { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 198.51.100.9" });
    expect(seen.remoteAddress).toBe("203.0.113.7");
  });

  it("never answers 500 to malformed, hostile or oversized forwarded headers", async () => {
    const t = await serve("loopback");
    const hostile = [
      "unknown",
      "[::1",
      "1.2.3.4:99999",
      "1.2.3.4/8",
      "fe80::1%25eth0",
      ",,,,",
      "   ",
      "\u00ff\u00fe",
      `${"a".repeat(200)}, 203.0.113.7`,
      Array.from({ length: 600 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(","),
      "9".repeat(6_000),
    ];
    for (const value of hostile) {
      const answer = await rawRequest(
        t.server.port,
        rawGet("/whoami", { "x-forwarded-for": value, "x-forwarded-proto": value }),
      );
      expect(answer.status, value.slice(0, 40)).toBe(200);
      const seen = JSON.parse(answer.body) as { remoteAddress: string; secure: boolean };
      expect(seen.secure).toBe(false);
      expect(seen.remoteAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$|^203\.0\.113\.7$|^10\.0\.\d+\.\d+$/);
    }
    expect(t.logger.entries.filter((e) => e.level === "error")).toEqual([]);
  });
});
