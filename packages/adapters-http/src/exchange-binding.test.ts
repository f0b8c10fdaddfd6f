import { HttpExchange } from "@platform/core";
import { mockEvent } from "h3";
import { describe, expect, it } from "vitest";
import { toExchange, writeExchange } from "./exchange-binding.js";

const OPTIONS = { maxBodySize: 1024, trustProxy: false };

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

  it("honours X-Forwarded-* only with trustProxy", () => {
    const headers = { "x-forwarded-for": "198.51.100.1, 10.0.0.2", "x-forwarded-proto": "https" };
    const plain = toExchange(mockEvent("http://x.test/", { headers }), OPTIONS);
    expect([plain.remoteAddress, plain.secure]).toEqual(["", false]);
    const trusted = toExchange(mockEvent("http://x.test/", { headers }), { ...OPTIONS, trustProxy: true });
    expect([trusted.remoteAddress, trusted.secure]).toEqual(["198.51.100.1", true]);
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
});
