import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { CorsFilter, type CorsOptions } from "./cors-filter.js";

const APP = "https://app.example.com";

function exchange(method: string, headers: Record<string, string> = {}): HttpExchange {
  return new HttpExchange({ method, url: "/api/me", headers, remoteAddress: "::1" });
}

async function run(options: CorsOptions, ex: HttpExchange) {
  let next = false;
  await new CorsFilter(options).filter(ex, async () => {
    next = true;
  });
  return { next, status: ex.response.status, headers: Object.fromEntries(ex.response.headers), ex };
}

function preflight(origin: string, method = "POST", requestHeaders?: string): HttpExchange {
  const headers: Record<string, string> = { origin, "access-control-request-method": method };
  if (requestHeaders !== undefined) headers["access-control-request-headers"] = requestHeaders;
  return exchange("OPTIONS", headers);
}

describe("CorsFilter", () => {
  it("is named cors", () => {
    expect(new CorsFilter({ allowedOrigins: [] }).name).toBe("cors");
  });

  it("leaves requests without Origin untouched", async () => {
    const r = await run({ allowedOrigins: [APP] }, exchange("POST"));
    expect(r).toMatchObject({ next: true, status: 200, headers: {} });
    const opts = await run(
      { allowedOrigins: [APP] },
      exchange("OPTIONS", { "access-control-request-method": "POST" }),
    );
    expect(opts).toMatchObject({ next: true, headers: {} });
  });

  it("answers an allowed preflight with 204 and the allow headers, without calling next", async () => {
    const r = await run({ allowedOrigins: [APP] }, preflight(APP, "POST", "content-type, x-csrf-token"));
    expect(r.next).toBe(false);
    expect(r.status).toBe(204);
    expect(r.ex.response.committed).toBe(true);
    expect(r.ex.response.body).toBeUndefined();
    expect(r.headers).toEqual({
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "GET, POST",
      "access-control-allow-headers":
        "Content-Type, Authorization, X-CSRF-TOKEN, X-Device-Id, X-MFA-Session-Id, X-MFA-Binding",
      "access-control-max-age": "600",
    });
  });

  it("adds Allow-Credentials when configured, and honours methods, headers and max age", async () => {
    const options: CorsOptions = {
      allowedOrigins: [APP],
      allowCredentials: true,
      allowedMethods: ["get", "DELETE"],
      allowedHeaders: ["X-Custom"],
      maxAgeSeconds: 0,
    };
    const r = await run(options, preflight(APP, "DELETE", "X-CUSTOM"));
    expect(r.status).toBe(204);
    expect(r.headers).toMatchObject({
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": "GET, DELETE",
      "access-control-allow-headers": "X-Custom",
      "access-control-max-age": "0",
    });
  });

  it("refuses a preflight with a disallowed method or header with 403 ACCESS_DENIED", async () => {
    for (const ex of [
      preflight(APP, "DELETE"),
      preflight(APP, "POST", "content-type, x-evil"),
      preflight(APP, "POST", "content-type\r\nx-evil"),
      preflight(APP, "PO ST"),
    ]) {
      const r = await run({ allowedOrigins: [APP] }, ex);
      expect(r.next).toBe(false);
      expect(r.status).toBe(403);
      expect(r.ex.response.body).toEqual({ code: "ACCESS_DENIED", message: "CORS request refused" });
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    }
  });

  it("refuses a preflight from a disallowed origin", async () => {
    const r = await run({ allowedOrigins: [APP] }, preflight("https://other.example.com"));
    expect(r).toMatchObject({ next: false, status: 403 });
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("adds Allow-Origin, credentials and exposed headers to an actual request from an allowed origin", async () => {
    const r = await run(
      { allowedOrigins: [APP], allowCredentials: true, exposedHeaders: ["X-Request-Id"] },
      exchange("POST", { origin: APP }),
    );
    expect(r.next).toBe(true);
    expect(r.headers).toEqual({
      vary: "Origin",
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "X-Request-Id",
    });
  });

  it("treats OPTIONS without Access-Control-Request-Method as an actual request", async () => {
    const r = await run({ allowedOrigins: [APP] }, exchange("OPTIONS", { origin: APP }));
    expect(r.next).toBe(true);
    expect(r.headers["access-control-allow-origin"]).toBe(APP);
  });

  it("lets an actual request from another origin through without CORS headers", async () => {
    const r = await run({ allowedOrigins: [APP] }, exchange("GET", { origin: "https://other.example.com" }));
    expect(r.next).toBe(true);
    expect(r.headers).toEqual({ vary: "Origin" });
  });

  it("compares scheme and host case-insensitively and normalises configured origins", async () => {
    const r = await run(
      { allowedOrigins: ["HTTPS://App.Example.com:443/"] },
      exchange("GET", { origin: APP }),
    );
    expect(r.headers["access-control-allow-origin"]).toBe(APP);
    const upper = await run(
      { allowedOrigins: [APP] },
      exchange("GET", { origin: "https://APP.example.COM" }),
    );
    expect(upper.headers["access-control-allow-origin"]).toBe("https://APP.example.COM");
    const port = await run(
      { allowedOrigins: ["http://localhost:5173"] },
      exchange("GET", { origin: "http://localhost:5173" }),
    );
    expect(port.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const idn = await run(
      { allowedOrigins: ["https://bücher.example"] },
      exchange("GET", { origin: "https://xn--bcher-kva.example" }),
    );
    expect(idn.headers["access-control-allow-origin"]).toBe("https://xn--bcher-kva.example");
  });

  it("answers * for any origin when so configured without credentials", async () => {
    const r = await run({ allowedOrigins: ["*"] }, exchange("GET", { origin: "https://anyone.example" }));
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    const p = await run({ allowedOrigins: ["*"] }, preflight("https://anyone.example"));
    expect(p.status).toBe(204);
    expect(p.headers["access-control-allow-origin"]).toBe("*");
  });

  it("keeps an existing Vary header", async () => {
    const ex = exchange("GET", { origin: APP });
    ex.response.headers.set("Vary", "Accept-Encoding, origin");
    await run({ allowedOrigins: [APP] }, ex);
    expect(ex.response.headers.get("Vary")).toBe("Accept-Encoding, origin");
    const ex2 = exchange("GET", { origin: APP });
    ex2.response.headers.set("vary", "Accept");
    await run({ allowedOrigins: [APP] }, ex2);
    expect(ex2.response.headers.get("vary")).toBe("Accept, Origin");
  });

  it("refuses invalid configuration with CONFIGURATION_INVALID", () => {
    const bad: CorsOptions[] = [
      { allowedOrigins: ["*"], allowCredentials: true },
      { allowedOrigins: ["https://app.example.com/path"] },
      { allowedOrigins: ["https://app.example.com?x=1"] },
      { allowedOrigins: ["https://user@app.example.com"] },
      { allowedOrigins: ["app.example.com"] },
      { allowedOrigins: ["*.example.com"] },
      { allowedOrigins: ["https://*.example.com"] },
      { allowedOrigins: ["ftp://files.example.com"] },
      { allowedOrigins: ["https://app.example.com\r\n"] },
      { allowedOrigins: [""] },
      { allowedOrigins: [APP], allowedMethods: ["*"] },
      { allowedOrigins: [APP], allowedHeaders: ["X Bad"] },
      { allowedOrigins: [APP], exposedHeaders: ["X-Ok", "Bad\n"] },
      { allowedOrigins: [APP], maxAgeSeconds: -1 },
      { allowedOrigins: [APP], maxAgeSeconds: 1.5 },
    ];
    for (const options of bad) {
      let code = "none";
      try {
        new CorsFilter(options);
      } catch (e) {
        code = isPlatformError(e) ? e.code : "other";
      }
      expect(code, JSON.stringify(options)).toBe("CONFIGURATION_INVALID");
    }
  });
});
