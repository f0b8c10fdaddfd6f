import type { HttpInterceptor } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, rawRequest, startTestServer, type TestServer } from "./test-support.js";

// Answers every request with the path the core sees, before any route or guard.
const echo: HttpInterceptor = {
  intercept: async (exchange) => exchange.json(200, { path: exchange.path, rawPath: exchange.rawPath }),
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer(() => {}, { app: { interceptors: [echo] } });
});
afterAll(() => t.close());

/** Request path as sent → HttpExchange.path, the same over a socket and in-process. */
const CASES: Array<[sent: string, path: string]> = [
  ["/api/orders/%31", "/api/orders/1"],
  ["/%61dmin", "/admin"],
  ["/%61dmin/", "/admin"],
  ["/admin/", "/admin"],
  ["/admin", "/admin"],
  ["/", "/"],
  ["/%7euser", "/~user"],
  ["/a%40b", "/a@b"],
  // h3 keeps these as sent; the exchange makes them canonical
  ["/a%5E", "/a^"],
  ["/a^", "/a^"],
  ["/caf%c3%a9", "/caf%C3%A9"],
  ["/caf%C3%A9", "/caf%C3%A9"],
  ["/a%2fb", "/a%2Fb"],
  // other paths, kept (a route 404 is fine, as long as guards see the same string)
  ["/ADMIN", "/ADMIN"],
  ["/admin.", "/admin."],
];

describe("the path an h3 request hands the core (h3 event.url.pathname, then canonicalPath)", () => {
  it.each(CASES)("%s over a real socket is %s (the request line stays in rawPath)", async (sent, path) => {
    const res = await rawRequest(t.server.port, rawGet(sent));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ path, rawPath: sent });
  });

  it.each(CASES)("%s in-process (app.request) is %s", async (sent, path) => {
    const res = await t.app.request(sent);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { path: string }).path).toBe(path);
  });
});
