import "reflect-metadata";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "srvx/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS_LOG_MESSAGE } from "./access-log.js";
import { nodeExchange } from "./node-binding.js";
import { directListenerOf, type NodeListener } from "./node-listener.js";
import { type RawAnswer, rawRequest, startTestServer, type TestServer } from "./test-support.js";

/** An IncomingMessage as nodeExchange reads it. */
function request(url: string, headers: Record<string, string> = {}, extra: object = {}): IncomingMessage {
  const rawHeaders = Object.entries(headers).flat();
  return {
    url,
    method: "GET",
    httpVersionMajor: 1,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    rawHeaders,
    socket: { remoteAddress: "10.1.2.3" },
    ...extra,
  } as unknown as IncomingMessage;
}

describe("nodeExchange", () => {
  const options = { maxBodySize: 1024 };

  it("builds the exchange of a plain GET straight from Node's request", async () => {
    const exchange = nodeExchange(
      request("/a/b?x=1&y", { Cookie: "a=1", cookie: "b=2", "X-Forwarded-For": "1.1.1.1" }),
      options,
    );
    expect(exchange).toBeDefined();
    expect(exchange?.path).toBe("/a/b");
    expect(exchange?.rawPath).toBe("/a/b");
    expect(exchange?.query.get("x")).toBe("1");
    expect(exchange?.header("cookie")).toBe("a=1; b=2");
    // No trusted proxy: the socket peer is the client, X-Forwarded-For does not count.
    expect(exchange?.remoteAddress).toBe("10.1.2.3");
    expect(exchange?.secure).toBe(false);
    expect(await exchange?.text()).toBe("");
  });

  it("trims whitespace at either end of a header value, as Headers does, and keeps it inside", () => {
    const exchange = nodeExchange(
      request("/a", {
        "X-Pad": " \tvalue\t ",
        "X-Lead": "\nlead",
        "X-Trail": "trail\r",
        "X-Inner": "a \t b",
        "X-Blank": "",
        "X-Spaces": "   ",
      }),
      options,
    );
    expect(
      ["x-pad", "x-lead", "x-trail", "x-inner", "x-blank", "x-spaces"].map((n) => exchange?.header(n)),
    ).toEqual(["value", "lead", "trail", "a \t b", "", ""]);
  });

  it.each([
    ["absolute form", request("http://evil.example/a")],
    ["asterisk form", request("*")],
    ["an escape in the path", request("/a%2Fb")],
    ["a dot segment", request("/a/../admin")],
    ["a backslash", request("/a\\b")],
    ["a space or control byte", request("/a\u0001b")],
    ["an odd query character", request("/a?x=<y>")],
    ["a body by length", request("/a", { "content-length": "0" })],
    ["a chunked body", request("/a", { "transfer-encoding": "chunked" })],
    // Judged from the raw headers (Node's `req.headers` object is never built on this path).
    ["a body by length, as sent", request("/a", { "Content-Length": "5" }, { headers: {} })],
    ["a chunked body, as sent", request("/a", { "Transfer-Encoding": "chunked" }, { headers: {} })],
    ["HTTP/2", request("/a", {}, { httpVersionMajor: 2 })],
    ["an Express mount path", request("/a", {}, { baseUrl: "/auth" })],
  ])("leaves %s to the h3 path", (_, req) => {
    expect(nodeExchange(req, options)).toBeUndefined();
  });
});

describe("the direct listener answers as the h3 path does", () => {
  let t: TestServer;
  let h3Server: Server;
  let h3Port: number;

  beforeAll(async () => {
    t = await startTestServer(({ routes }) => {
      const echo = (exchange: Parameters<Parameters<typeof routes.add>[0]["handler"]>[0]) => ({
        method: exchange.method,
        path: exchange.path,
        rawPath: exchange.rawPath,
        query: [...exchange.query.entries()],
        cookie: exchange.header("cookie") ?? null,
        accept: exchange.header("accept") ?? null,
        remoteAddress: exchange.remoteAddress,
        secure: exchange.secure,
      });
      routes.add({ method: "GET", path: "/echo/**", handler: echo });
      routes.add({ method: "POST", path: "/echo/**", handler: echo });
      routes.add({
        method: "GET",
        path: "/cookie",
        handler: (exchange) => {
          exchange.response.cookies.push({ name: "a", value: "1", path: "/", httpOnly: true });
          exchange.response.headers.set("X-Custom", "  padded ");
          return "text";
        },
      });
      routes.add({
        method: "GET",
        path: "/sized",
        handler: (exchange) => {
          // A length the route set itself is kept, not added twice.
          exchange.response.headers.set("content-length", "4");
          return new Uint8Array([1, 2, 3, 4]);
        },
      });
      routes.add({
        method: "GET",
        path: "/boom",
        handler: () => {
          throw new Error("secret detail");
        },
      });
      routes.add({
        method: "GET",
        path: "/split-header",
        handler: (exchange) => {
          // A value that would split the header block: the answer cannot be written as it is.
          exchange.response.headers.set("x-note", "a\r\nset-cookie: x=1");
          return "text";
        },
      });
    });
    expect(directListenerOf(t.app)).toBeDefined();
    // The same app served the old way: srvx's handler over `app.fetch` (every request through h3).
    h3Server = createServer(toNodeHandler(t.app.fetch) as NodeListener);
    await new Promise<void>((resolve) => h3Server.listen(0, "127.0.0.1", resolve));
    h3Port = (h3Server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    h3Server.closeAllConnections();
    await new Promise((resolve) => h3Server.close(resolve));
    await t.close();
  });

  /** The answer without what differs by nature (date, correlation id). */
  function comparable(answer: RawAnswer): unknown {
    const { date: _d, "x-correlation-id": _c, "x-request-id": _r, ...headers } = answer.headers;
    let body: unknown = answer.body;
    try {
      body = JSON.parse(answer.body);
      if (body !== null && typeof body === "object" && "correlationId" in body) {
        body = { ...body, correlationId: "(id)" };
      }
    } catch {
      // not JSON: compared as text
    }
    return { status: answer.status, headers, body };
  }

  const lines = [
    "GET /echo/a/b?x=1&y=&x=2 HTTP/1.1",
    "GET /echo/a//b/ HTTP/1.1",
    "GET /echo/a;jsessionid=1/b HTTP/1.1",
    "GET /echo/caf%C3%A9 HTTP/1.1",
    "GET /echo/a/%2e%2e/b HTTP/1.1",
    "GET /echo/a/../../admin HTTP/1.1",
    "GET /echo/a\\b HTTP/1.1",
    "GET /echo/%ZZ HTTP/1.1",
    "GET /echo/a?q=%3Cx%3E&r=a+b HTTP/1.1",
    "GET /echo/a?q=<x> HTTP/1.1",
    "GET /echo/? HTTP/1.1",
    "HEAD /echo/head HTTP/1.1",
    "GET /echo/old HTTP/1.0",
    "GET http://localhost/echo/absolute HTTP/1.1",
    "DELETE /echo/a HTTP/1.1",
    "GET /cookie HTTP/1.1",
    "GET /sized HTTP/1.1",
    "HEAD /sized HTTP/1.1",
    "GET /boom HTTP/1.1",
    "GET /split-header HTTP/1.1",
    "GET /nowhere HTTP/1.1",
    "GET /health HTTP/1.1",
  ];

  it.each(lines)("%s", async (line) => {
    const head = `${line}\r\nHost: localhost\r\nAccept:  text/html \r\nCookie: a=1\r\ncookie: b=2\r\nX-Forwarded-For: 9.9.9.9\r\nConnection: close\r\n\r\n`;
    const direct = await rawRequest(t.server.port, head);
    const viaH3 = await rawRequest(h3Port, head);
    expect(comparable(direct)).toEqual(comparable(viaH3));
  });

  it("a header value that would split the header block answers 500 on both paths, never hangs, never splits", async () => {
    const head = "GET /split-header HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    for (const port of [t.server.port, h3Port]) {
      const answer = await rawRequest(port, head);
      expect(answer.status).toBe(500);
      expect(answer.headers["set-cookie"]).toBeUndefined();
      expect(answer.headers["x-note"]).toBeUndefined();
      expect(JSON.parse(answer.body)).toMatchObject({ code: "INTERNAL_ERROR" });
    }
  });

  it("a body still goes through h3 and reads as before", async () => {
    const head =
      "POST /echo/form HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi";
    expect(comparable(await rawRequest(t.server.port, head))).toEqual(
      comparable(await rawRequest(h3Port, head)),
    );
  });

  it("logs one access line for a direct answer", async () => {
    const before = t.logger.entries.filter((e) => e.message === ACCESS_LOG_MESSAGE).length;
    expect((await t.fetch("/echo/logged")).status).toBe(200);
    const lines = t.logger.entries.filter((e) => e.message === ACCESS_LOG_MESSAGE);
    expect(lines.length).toBe(before + 1);
    expect(lines.at(-1)?.fields).toMatchObject({ method: "GET", path: "/echo/logged", status: 200 });
  });
});
