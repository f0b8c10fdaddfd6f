import net from "node:net";
import { H3, serve } from "h3";
import { describe, expect, it } from "vitest";
import { toExchange } from "./exchange-binding.js";

/** Sends one raw HTTP/1.1 request and returns the body of the answer (the server closes after it). */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => socket.write(head));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.on("end", () => resolve(text.slice(text.indexOf("\r\n\r\n") + 4)));
    socket.on("error", reject);
  });
}

describe("toExchange on Node", () => {
  it("reads the headers from Node's raw list exactly as the request's web Headers list them", async () => {
    const app = new H3({ silent: true });
    app.get("/h", (event) => {
      const fromWeb: Record<string, string> = {};
      for (const [name, value] of event.req.headers) fromWeb[name] = value;
      const exchange = toExchange(event, { maxBodySize: 1024 });
      return { fromWeb, exchange: Object.fromEntries(exchange.headerEntries()) };
    });
    const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
    await server.ready();
    try {
      const port = Number(new URL(server.url ?? "").port);
      const body = await rawRequest(
        port,
        "GET /h HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Multi: 1\r\nx-multi:  2 \r\n" +
          "Authorization: Bearer a\r\nauthorization: Bearer b\r\nCookie: a=1\r\nCOOKIE: b=2\r\n" +
          "Set-Cookie: s=1\r\nset-cookie: s=2\r\nX-Forwarded-For: 198.51.100.1\r\nx-forwarded-for: 203.0.113.9\r\n" +
          "Content-Type: text/plain\r\ncontent-type: application/json\r\nX-Empty:\r\n\r\n",
      );
      const { fromWeb, exchange } = JSON.parse(body) as Record<string, Record<string, string>>;
      expect(exchange).toEqual(fromWeb);
      expect(exchange).toMatchObject({
        "x-multi": "1, 2",
        authorization: "Bearer a, Bearer b",
        cookie: "a=1; b=2",
        "set-cookie": "s=2",
        "x-forwarded-for": "198.51.100.1, 203.0.113.9",
        "x-empty": "",
      });
    } finally {
      await server.close(true);
    }
  });

  it("refuses a request under an Express mount path (req.baseUrl), which the platform cannot serve", () => {
    const node = { url: "/login", rawHeaders: [], baseUrl: "/auth" };
    const event = { req: { runtime: { node: { req: node } } } } as unknown as Parameters<
      typeof toExchange
    >[0];
    expect(() => toExchange(event, { maxBodySize: 1024 })).toThrow(/mounted under the prefix "\/auth"/);
  });
});
