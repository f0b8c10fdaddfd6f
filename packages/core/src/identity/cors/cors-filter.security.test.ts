import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../web/http-exchange.js";
import { CorsFilter, type CorsOptions } from "./cors-filter.js";

const ALLOWED = "https://example.com";

function exchange(method: string, headers: Record<string, string>): HttpExchange {
  return new HttpExchange({ method, url: "/api/data", headers, remoteAddress: "198.51.100.7" });
}

async function actual(
  origin: string,
  options: CorsOptions = { allowedOrigins: [ALLOWED], allowCredentials: true },
) {
  const ex = exchange("GET", { origin });
  let next = false;
  await new CorsFilter(options).filter(ex, async () => {
    next = true;
  });
  return { next, acao: ex.response.headers.get("access-control-allow-origin"), ex };
}

async function preflight(
  origin: string,
  options: CorsOptions = { allowedOrigins: [ALLOWED], allowCredentials: true },
) {
  const ex = exchange("OPTIONS", { origin, "access-control-request-method": "POST" });
  let next = false;
  await new CorsFilter(options).filter(ex, async () => {
    next = true;
  });
  return {
    next,
    status: ex.response.status,
    acao: ex.response.headers.get("access-control-allow-origin"),
    ex,
  };
}

const LOOKALIKES = [
  "https://evil-example.com",
  "https://example.com.evil.com",
  "https://evilexample.com",
  "https://sub.example.com",
  "http://example.com",
  "https://example.com:8443",
  "https://example.com.",
  "https://example.co",
  "https://example.comm",
  "https://example.com/",
  "https://example.com/path",
  "https://example.com@evil.com",
  "https://evil.com#https://example.com",
  "https://evil.com?https://example.com",
  "https://example.com, https://evil.com",
  "https://evil.com https://example.com",
  " https://example.com",
  "https://exаmple.com", // Cyrillic а
  "https://xn--exmple-4nf.com",
  "null",
  "",
  "*",
];

describe("CorsFilter security", () => {
  it("refuses lookalike origins: no Allow-Origin on actual requests, 403 on preflights", async () => {
    for (const origin of LOOKALIKES) {
      const a = await actual(origin);
      expect(a.acao, origin).toBeUndefined();
      expect(a.ex.response.headers.get("access-control-allow-credentials"), origin).toBeUndefined();
      const p = await preflight(origin);
      expect(p.status, origin).toBe(403);
      expect(p.next, origin).toBe(false);
      expect(p.acao, origin).toBeUndefined();
    }
  });

  it("never allows the null origin, not even with '*', unless listed literally", async () => {
    expect((await actual("null", { allowedOrigins: ["*"] })).acao).toBeUndefined();
    expect((await preflight("null", { allowedOrigins: ["*"] })).status).toBe(403);
    expect((await actual("null", { allowedOrigins: ["null"] })).acao).toBe("null");
    expect((await preflight("null", { allowedOrigins: ["null"] })).status).toBe(204);
  });

  it("refuses an Origin carrying CR/LF or other control characters, and never reflects it", async () => {
    for (const origin of [
      "https://example.com\r\nSet-Cookie: pwned=1",
      "https://example.com\nX-Injected: 1",
      "https://example.com\r",
      "https://example.com\u0000",
      "https://example.com\t",
    ]) {
      for (const options of [{ allowedOrigins: [ALLOWED] }, { allowedOrigins: ["*"] }]) {
        const a = await actual(origin, options);
        expect(a.acao, JSON.stringify(origin)).toBeUndefined();
        const p = await preflight(origin, options);
        expect(p.status, JSON.stringify(origin)).toBe(403);
        for (const value of p.ex.response.headers.values()) expect(value).not.toMatch(/[\r\n]/);
      }
    }
  });

  it("refuses a preflight asking for a header with CR/LF in its name list", async () => {
    const ex = exchange("OPTIONS", {
      origin: ALLOWED,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type\r\nset-cookie: a=b",
    });
    await new CorsFilter({ allowedOrigins: [ALLOWED] }).filter(ex, async () => {});
    expect(ex.response.status).toBe(403);
  });

  it("still serves the exact allowed origin", async () => {
    expect((await actual(ALLOWED)).acao).toBe(ALLOWED);
    expect((await preflight(ALLOWED)).status).toBe(204);
  });
});
