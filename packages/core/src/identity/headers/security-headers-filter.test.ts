import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import {
  DEFAULT_CONTENT_SECURITY_POLICY,
  SecurityHeadersFilter,
  type SecurityHeadersOptions,
} from "./security-headers-filter.js";

function exchange(secure = false): HttpExchange {
  return new HttpExchange({ method: "GET", url: "/", headers: {}, remoteAddress: "::1", secure });
}

async function run(
  options: SecurityHeadersOptions,
  route: (ex: HttpExchange) => void | Promise<void> = () => {},
  secure = false,
): Promise<Record<string, string>> {
  const ex = exchange(secure);
  await new SecurityHeadersFilter(options).filter(ex, async () => route(ex));
  return Object.fromEntries(ex.response.headers);
}

describe("SecurityHeadersFilter", () => {
  it("is named headers", () => {
    expect(new SecurityHeadersFilter().name).toBe("headers");
  });

  it("sets the defaults on a JSON response over http (no HSTS, no CSP)", async () => {
    const headers = await run({}, (ex) => ex.json(200, { ok: true }));
    expect(headers).toEqual({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "content-type": "application/json; charset=utf-8",
    });
  });

  it("adds HSTS on https only", async () => {
    expect((await run({}, () => {}, true))["strict-transport-security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(
      (await run({ hsts: { maxAgeSeconds: 60, includeSubDomains: false, preload: true } }, () => {}, true))[
        "strict-transport-security"
      ],
    ).toBe("max-age=60; preload");
    expect((await run({}, () => {}, false))["strict-transport-security"]).toBeUndefined();
    expect((await run({ hsts: false }, () => {}, true))["strict-transport-security"]).toBeUndefined();
  });

  it("adds the CSP to HTML responses only", async () => {
    const html = await run({}, (ex) => ex.html(200, "<p>hi</p>"));
    expect(html["content-security-policy"]).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    const upper = await run({}, (ex) => {
      ex.response.headers.set("Content-Type", "TEXT/HTML");
    });
    expect(upper["content-security-policy"]).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    const custom = await run({ contentSecurityPolicy: "default-src 'none'" }, (ex) => ex.html(200, ""));
    expect(custom["content-security-policy"]).toBe("default-src 'none'");
    expect(
      (await run({ contentSecurityPolicy: false }, (ex) => ex.html(200, "")))["content-security-policy"],
    ).toBe(undefined);
    expect((await run({}, (ex) => ex.json(200, {})))["content-security-policy"]).toBeUndefined();
  });

  it("keeps a route's own CSP and Cache-Control (in any case)", async () => {
    const own = await run({}, (ex) => {
      ex.html(200, "");
      ex.response.headers.set("content-security-policy", "default-src 'self' cdn.example");
      ex.response.headers.set("cache-control", "public, max-age=60");
    });
    expect(own["content-security-policy"]).toBe("default-src 'self' cdn.example");
    expect(own["cache-control"]).toBe("public, max-age=60");
    const capitalised = await run({}, (ex) => {
      ex.response.headers.set("Cache-Control", "max-age=5");
    });
    expect(capitalised["Cache-Control"]).toBe("max-age=5");
    expect(capitalised["cache-control"]).toBeUndefined();
  });

  it("lets a route override a header set before it", async () => {
    const headers = await run({}, (ex) => {
      ex.response.headers.set("x-frame-options", "SAMEORIGIN");
    });
    expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("turns each header off with false and honours SAMEORIGIN and another referrer policy", async () => {
    const none = await run(
      {
        contentTypeOptions: false,
        frameOptions: false,
        referrerPolicy: false,
        hsts: false,
        contentSecurityPolicy: false,
        cacheControl: false,
      },
      (ex) => ex.html(200, ""),
      true,
    );
    expect(none).toEqual({ "content-type": "text/html; charset=utf-8" });
    const other = await run({
      frameOptions: "SAMEORIGIN",
      referrerPolicy: "strict-origin-when-cross-origin",
    });
    expect(other["x-frame-options"]).toBe("SAMEORIGIN");
    expect(other["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("has the headers in place even when the route throws", async () => {
    const ex = exchange(true);
    const filter = new SecurityHeadersFilter();
    await expect(
      filter.filter(ex, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(Object.fromEntries(ex.response.headers)).toEqual({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      "cache-control": "no-store",
    });
  });

  it("refuses invalid options, including values that could split the header block", () => {
    const bad: SecurityHeadersOptions[] = [
      { frameOptions: "ALLOW-FROM x" as "DENY" },
      { referrerPolicy: "nope" },
      { referrerPolicy: "no-referrer\r\nSet-Cookie: a=b" },
      { contentSecurityPolicy: "default-src 'self'\r\nSet-Cookie: a=b" },
      { contentSecurityPolicy: " " },
      { hsts: { maxAgeSeconds: -1 } },
      { hsts: { maxAgeSeconds: 1.5 } },
    ];
    for (const options of bad) {
      let code = "none";
      try {
        new SecurityHeadersFilter(options);
      } catch (e) {
        code = isPlatformError(e) ? e.code : "other";
      }
      expect(code, JSON.stringify(options)).toBe("CONFIGURATION_INVALID");
    }
  });
});
