import { PlatformError } from "@keyward/core/errors";
import type { HttpExchange, HttpInterceptor } from "@keyward/core/web";
import { H3 } from "h3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { correlationIdOf, routeParams } from "./exchange-attributes.js";
import { ACCESS_LOG_MESSAGE } from "./access-log.js";
import { startTestServer, type TestServer } from "./test-support.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("createHttpApp", () => {
  let t: TestServer;
  const seen: string[] = [];
  const interceptor: HttpInterceptor = {
    async intercept(exchange: HttpExchange, next) {
      seen.push(exchange.path);
      exchange.response.headers.set("x-frame-options", "DENY");
      if (exchange.path === "/blocked") exchange.json(401, { code: "AUTHENTICATION_REQUIRED" });
      else await next();
    },
  };
  let blockedRouteRan = false;

  beforeAll(async () => {
    t = await startTestServer(
      ({ routes }) => {
        routes.add({ method: "GET", path: "/hello", handler: () => ({ hello: "world" }) });
        routes.add({
          method: "POST",
          path: "/items",
          handler: async (ex) => ({ got: (await ex.fields()).name }),
        });
        routes.add({ method: "GET", path: "/items/{id}", handler: (ex) => ({ id: routeParams(ex).id }) });
        routes.add({
          method: "GET",
          path: "/blocked",
          handler: () => {
            blockedRouteRan = true;
          },
        });
        routes.add({ method: "GET", path: "/text", handler: () => "plain text" });
        routes.add({ method: "GET", path: "/bytes", handler: () => new Uint8Array([1, 2, 3]) });
        routes.add({
          method: "GET",
          path: "/cookies",
          handler: (ex) => {
            ex.setCookie({ name: "a", value: "1", httpOnly: true });
            ex.setCookie({ name: "b", value: "x y", sameSite: "Lax" });
            ex.redirect("/hello");
          },
        });
        routes.add({
          method: "GET",
          path: "/correlation",
          handler: (ex) => ({ id: correlationIdOf(ex) ?? null }),
        });
        routes.add({
          method: "GET",
          path: "/boom",
          handler: () => {
            throw new Error("secret database detail");
          },
        });
        routes.add({
          method: "GET",
          path: "/conflict",
          handler: () => {
            throw new PlatformError("CONFLICT", "Already exists", { details: { field: "name" } });
          },
        });
        routes.add({
          method: "GET",
          path: "/fail-after-cookie",
          handler: (ex) => {
            ex.setCookie({ name: "session", value: "half-done" });
            throw new Error("late failure");
          },
        });
      },
      { app: { interceptors: [interceptor] } },
    );
  });
  afterAll(async () => t.close());

  it("answers a JSON route with 200 and a correlation id header", async () => {
    const res = await t.fetch("/hello");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-correlation-id")).toMatch(UUID);
    expect(await res.json()).toEqual({ hello: "world" });
  });

  it("reads a JSON body through the exchange", async () => {
    const res = await t.fetch("/items", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "pen" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ got: "pen" });
  });

  it("reads an urlencoded form too", async () => {
    const res = await t.fetch("/items", { method: "POST", body: new URLSearchParams({ name: "ink" }) });
    expect(await res.json()).toEqual({ got: "ink" });
  });

  it("passes decoded path parameters", async () => {
    const res = await t.fetch("/items/a%20b");
    expect(await res.json()).toEqual({ id: "a b" });
  });

  it("puts the correlation id on the exchange, the same as the header", async () => {
    const res = await t.fetch("/correlation");
    const body = (await res.json()) as { id: string };
    expect(body.id).toMatch(UUID);
    expect(res.headers.get("x-correlation-id")).toBe(body.id);
  });

  it("writes strings as text and bytes as bytes", async () => {
    const text = await t.fetch("/text");
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await text.text()).toBe("plain text");
    const bytes = await t.fetch("/bytes");
    expect(bytes.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("sends each cookie as its own Set-Cookie header", async () => {
    const res = await t.fetch("/cookies", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/hello");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/; HttpOnly", "b=x%20y; Path=/; SameSite=Lax"]);
  });

  it("answers 404 JSON for an unknown path, after the interceptors ran", async () => {
    const res = await t.fetch("/nowhere");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
    expect(seen).toContain("/nowhere");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("answers 405 JSON with Allow for a known path and the wrong method", async () => {
    const res = await t.fetch("/hello", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
  });

  it("answers HEAD from a GET route without a body", async () => {
    const res = await t.fetch("/hello", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("stops at an interceptor that commits: the route does not run", async () => {
    const res = await t.fetch("/blocked");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "AUTHENTICATION_REQUIRED" });
    expect(blockedRouteRan).toBe(false);
  });

  it("answers a PlatformError with its code, status and details", async () => {
    const res = await t.fetch("/conflict");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: "CONFLICT", message: "Already exists", field: "name" });
  });

  it("turns an unknown error into a generic 500, logged once with the same correlation id", async () => {
    t.logger.entries.length = 0;
    const res = await t.fetch("/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toEqual({
      code: "INTERNAL_ERROR",
      message: "Internal error",
      correlationId: expect.any(String),
    });
    expect(res.headers.get("x-correlation-id")).toBe(body.correlationId);
    expect(text).not.toContain("secret database detail");
    expect(text).not.toMatch(/at .*\.ts/);
    // One error line, and the request's access line with the same correlation id.
    const [entry, ...others] = t.logger.entries.filter((e) => e.message !== ACCESS_LOG_MESSAGE);
    expect(others).toHaveLength(0);
    expect(t.logger.entries.find((e) => e.message === ACCESS_LOG_MESSAGE)?.fields).toMatchObject({
      status: 500,
      correlationId: body.correlationId,
    });
    if (entry === undefined) throw new Error("no error line");
    expect(entry.level).toBe("error");
    expect(entry.fields).toMatchObject({
      correlationId: body.correlationId,
      method: "GET",
      path: "/boom",
      error: "secret database detail",
    });
    expect(String(entry.fields.stack)).toContain("create-http-app.test.ts");
    expect(JSON.parse(entry.line)).toMatchObject({ correlationId: body.correlationId });
  });

  it("drops cookies of a failed request but keeps decided headers", async () => {
    const res = await t.fetch("/fail-after-cookie");
    expect(res.status).toBe(500);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("answers h3's own errors (a malformed URL) in the same JSON shape", async () => {
    const res = await t.fetch("/bad%ZZpath");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-correlation-id")).toMatch(UUID);
    expect(await res.json()).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("dispatches routes added after serve()", async () => {
    t.routes.add({ method: "GET", path: "/late", handler: () => ({ late: true }) });
    const res = await t.fetch("/late");
    expect(await res.json()).toEqual({ late: true });
  });

  it("also runs in-process through app.request (remote address unknown: '')", async () => {
    t.routes.add({ method: "GET", path: "/peer", handler: (ex) => ({ remoteAddress: ex.remoteAddress }) });
    const res = await t.app.request("/peer");
    expect(res.headers.get("x-correlation-id")).toMatch(UUID);
    expect(await res.json()).toEqual({ remoteAddress: "" });
  });

  it("lists the registered routes, health included", () => {
    const listed = t.routes.list().map((r) => `${r.method} ${r.path}`);
    expect(listed).toContain("GET /health");
    expect(listed).toContain("GET /items/{id}");
  });
  it("skips h3's own router while it holds no route, and asks it once a host added one", async () => {
    const findRoute = vi.spyOn(H3.prototype, "~findRoute");
    const other = await startTestServer(({ app }) => app.get("/h3-only", () => "h3"));
    try {
      expect((await t.fetch("/hello")).status).toBe(200);
      expect(findRoute).not.toHaveBeenCalled();
      // `handle` answers every request (h3's own routes are never reached), but h3 still looks them up
      // (through h3: served from Node, a plain GET never reaches h3 at all).
      expect((await other.app.request("/h3-only")).status).toBe(404);
      expect(findRoute).toHaveBeenCalled();
    } finally {
      findRoute.mockRestore();
      await other.close();
    }
  });
});

describe("createHttpApp without httpPlugin", () => {
  it("refuses with CONFIGURATION_INVALID", async () => {
    const { createPlatform } = await import("@keyward/core");
    const { createHttpApp } = await import("./create-http-app.js");
    const platform = createPlatform({ env: {} });
    expect(() => createHttpApp({ platform })).toThrow(/httpPlugin/);
  });
});
