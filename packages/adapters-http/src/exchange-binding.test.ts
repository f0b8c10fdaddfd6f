import { HttpExchange } from "@keyward/core/web";
import { type H3Event, mockEvent } from "h3";
import { describe, expect, it } from "vitest";
import { toExchange, writeExchange } from "./exchange-binding.js";
import { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.js";

const OPTIONS = { maxBodySize: 1024 };

function trust(text: string): TrustedProxies {
  const parsed = parseTrustedProxies(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

/** The socket peer srvx would report (`event.req.ip`), which mockEvent leaves out. */
function withPeer(event: H3Event, ip: string): H3Event {
  Object.defineProperty(event.req, "ip", { value: ip });
  return event;
}

describe("toExchange", () => {
  it("copies method, canonical path and query, headers and TLS", () => {
    const event = mockEvent("https://example.test/%61dmin/x?a=1&b=2", {
      method: "post",
      headers: [
        ["accept", "text/html"],
        ["x-multi", "1"],
        ["x-multi", "2"],
      ],
    });
    const exchange = toExchange(event, OPTIONS);
    expect(exchange.method).toBe("POST");
    expect(exchange.path).toBe("/admin/x");
    expect(exchange.query.get("b")).toBe("2");
    expect(exchange.header("Accept")).toBe("text/html");
    expect(exchange.header("x-multi")).toBe("1, 2");
    expect(exchange.secure).toBe(true);
    expect(exchange.remoteAddress).toBe("");
  });

  it("honours X-Forwarded-* only from a peer that is a trusted proxy", () => {
    const headers = { "x-forwarded-for": "198.51.100.1, 203.0.113.9", "x-forwarded-proto": "https" };
    const trustedProxies = trust("10.0.0.0/8");
    const plain = toExchange(mockEvent("http://x.test/", { headers }), OPTIONS);
    expect([plain.remoteAddress, plain.secure]).toEqual(["", false]);
    // In-process (app.request) the peer is unknown: no header counts, whatever is trusted.
    const unknownPeer = toExchange(mockEvent("http://x.test/", { headers }), { ...OPTIONS, trustedProxies });
    expect([unknownPeer.remoteAddress, unknownPeer.secure]).toEqual(["", false]);
    const untrusted = toExchange(withPeer(mockEvent("http://x.test/", { headers }), "192.0.2.1"), {
      ...OPTIONS,
      trustedProxies,
    });
    expect([untrusted.remoteAddress, untrusted.secure]).toEqual(["192.0.2.1", false]);
    const trusted = toExchange(withPeer(mockEvent("http://x.test/", { headers }), "10.0.0.2"), {
      ...OPTIONS,
      trustedProxies,
    });
    expect([trusted.remoteAddress, trusted.secure]).toEqual(["203.0.113.9", true]);
  });

  it("reads the body once, within the limit", async () => {
    const event = mockEvent("http://x.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    const exchange = toExchange(event, OPTIONS);
    expect(await exchange.fields()).toEqual({ a: 1 });
    expect(await exchange.text()).toBe('{"a":1}');
    const big = toExchange(mockEvent("http://x.test/", { method: "POST", body: "x".repeat(2048) }), OPTIONS);
    await expect(big.text()).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});

function exchange(method = "GET"): HttpExchange {
  return new HttpExchange({ method, url: "/", headers: {}, remoteAddress: "127.0.0.1" });
}

describe("writeExchange", () => {
  it("writes JSON with a default content type, keeping one the route set", async () => {
    const ex = exchange();
    ex.response.body = { a: [1] };
    const res = writeExchange(ex);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ a: [1] });
    const custom = exchange();
    custom.response.headers.set("content-type", "application/problem+json");
    custom.response.body = [1, 2];
    const res2 = writeExchange(custom);
    expect(res2.headers.get("content-type")).toBe("application/problem+json");
    expect(await res2.text()).toBe("[1,2]");
  });

  it("writes one Set-Cookie per cookie", () => {
    const ex = exchange();
    ex.setCookie({ name: "a", value: "1" });
    ex.setCookie({ name: "b", value: "", maxAge: 0 });
    expect(writeExchange(ex).headers.getSetCookie()).toEqual([
      "a=1; Path=/",
      "b=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ]);
  });

  it("sends no body for HEAD, 204 and 304", async () => {
    for (const [method, status] of [
      ["HEAD", 200],
      ["GET", 204],
      ["GET", 304],
    ] as const) {
      const ex = exchange(method);
      ex.response.status = status;
      ex.response.body = "ignored";
      const res = writeExchange(ex);
      expect(res.status).toBe(status);
      expect(await res.text()).toBe("");
    }
  });

  it("throws on a status a Response cannot carry (the app turns it into a 500)", () => {
    const ex = exchange();
    ex.response.status = 42;
    expect(() => writeExchange(ex)).toThrow(RangeError);
  });

  it("writes the header lines a web Headers would list, in its order, whatever the names' case and repeats", () => {
    /** The header lines on the wire (srvx's hand-over to Node: name, value, name, value, ...). */
    const wire = (res: Response): string[] =>
      (res as unknown as { _toNodeResponse(): { headers: string[] } })._toNodeResponse().headers;
    const cases: Array<{
      set: Array<[string, string]>;
      cookies: string[];
      extra?: Record<string, string>;
      body?: unknown;
    }> = [
      {
        set: [
          ["x-frame-options", "DENY"],
          ["cache-control", "no-store"],
          ["referrer-policy", "no-referrer"],
        ],
        cookies: [],
        body: { a: 1 },
      },
      {
        set: [
          ["X-Custom", " padded "],
          ["x-custom", "later"],
          ["Content-Type", "text/html"],
        ],
        cookies: ["a", "b"],
        body: "text",
      },
      {
        set: [
          ["x-request-id", "route's"],
          ["set-cookie", "raw=1"],
          ["b", "2"],
          ["a", "1"],
        ],
        cookies: ["c"],
        extra: { "X-Request-Id": "binding's", "x-correlation-id": "c1" },
      },
      {
        set: [["vary", "accept"]],
        cookies: ["d"],
        extra: { "set-cookie": "only=1" },
        body: new Uint8Array([1]),
      },
      { set: [], cookies: [], body: undefined },
      // Extra headers whose names differ only in case: the later replaces the earlier, either way round.
      { set: [["a", "1"]], cookies: [], extra: { "X-Dup": "first", "x-dup": "second" }, body: "t" },
      { set: [["a", "1"]], cookies: [], extra: { "x-dup": "first", "X-Dup": "second" }, body: "t" },
    ];
    for (const c of cases) {
      const ex = exchange();
      for (const [name, value] of c.set) ex.response.headers.set(name, value);
      for (const name of c.cookies) ex.setCookie({ name, value: "v" });
      ex.response.body = c.body as HttpExchange["response"]["body"];
      const reference = new Headers();
      for (const [name, value] of c.set) reference.set(name, value);
      for (const name of c.cookies) reference.append("set-cookie", `${name}=v; Path=/`);
      for (const [name, value] of Object.entries(c.extra ?? {})) reference.set(name, value);
      if (!reference.has("content-type") && c.body !== undefined) {
        const type =
          typeof c.body === "string"
            ? "text/plain; charset=utf-8"
            : c.body instanceof Uint8Array
              ? "application/octet-stream"
              : "application/json; charset=utf-8";
        reference.set("content-type", type);
      }
      const expected = [...reference].flat();
      const lines = wire(writeExchange(ex, c.extra));
      // srvx adds a Content-Length of its own for a body; the lines before it are ours.
      expect(lines.slice(0, expected.length)).toEqual(expected);
      expect(lines.slice(expected.length).filter((_, i) => i % 2 === 0)).toEqual(
        c.body === undefined ? [] : ["content-length"],
      );
    }
  });
});
