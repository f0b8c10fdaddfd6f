import net from "node:net";
import { createPlatform } from "@keyward/core";
import { describe, expect, it } from "vitest";
import { createHttpApp } from "./create-http-app.js";
import { fastResponse, ResponseHeaders } from "./fast-response.js";
import { httpPlugin } from "./http-properties.js";
import { serveHttp } from "./serve-http.js";

type Step = ["set", string, string] | ["cookie", string];

/** The same steps on a web Headers object and on ResponseHeaders must list the same pairs. */
function both(steps: Step[]): { web: [string, string][]; ours: [string, string][] } {
  const web = new Headers();
  const ours = new ResponseHeaders();
  for (const step of steps) {
    if (step[0] === "set") {
      web.set(step[1], step[2]);
      ours.set(step[1], step[2]);
    } else {
      web.append("set-cookie", step[1]);
      ours.appendCookie(step[1]);
    }
  }
  return { web: [...web], ours: ours.pairs() };
}

describe("ResponseHeaders", () => {
  it("lists headers as web Headers do: lower case, by name, later set wins, each cookie on its own", () => {
    const { web, ours } = both([
      ["set", "X-Frame-Options", "DENY"],
      ["set", "content-type", "text/html"],
      ["cookie", "a=1; Path=/"],
      ["set", "Cache-Control", "no-store"],
      ["set", "CONTENT-TYPE", "application/json"],
      ["cookie", "b=2; Path=/"],
      ["set", "x-correlation-id", "  c1\t"],
      ["set", "a-first", "1"],
      ["set", "set-cookie-policy", "x"],
    ]);
    expect(ours).toEqual(web);
    expect(ours.map(([n]) => n)).toEqual([
      "a-first",
      "cache-control",
      "content-type",
      "set-cookie",
      "set-cookie",
      "set-cookie-policy",
      "x-correlation-id",
      "x-frame-options",
    ]);
  });

  it("refuses what Headers refuses: a bad name, a line break or NUL in a value", () => {
    const ours = new ResponseHeaders();
    expect(() => ours.set("bad name", "x")).toThrow(TypeError);
    expect(() => ours.set("x-a", "1\r\nx-injected: 1")).toThrow(TypeError);
    expect(() => ours.appendCookie("a=1\n")).not.toThrow(); // trailing whitespace is trimmed, as Headers does
    expect(() => ours.appendCookie("a=1\nb")).toThrow(TypeError);
    expect(() => new Headers().set("x-a", "1\r\nx-injected: 1")).toThrow(TypeError);
  });
});

describe("fastResponse", () => {
  it("is a Response for in-process callers, and refuses a status a Response cannot carry", async () => {
    const res = fastResponse(201, [["content-type", "application/json"]], '{"a":1}');
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ a: 1 });
    expect(() => fastResponse(42, [], null)).toThrow(RangeError);
    expect(() => fastResponse(600, [], null)).toThrow(RangeError);
  });

  it("reaches the socket with a Content-Length, not chunked, and keeps the connection open", async () => {
    const platform = createPlatform({ plugins: [httpPlugin], env: {} });
    await platform.start();
    const server = await serveHttp(createHttpApp({ platform }).app, { port: 0 });
    try {
      const raw = await rawGet(server.port, "/health");
      const head = raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase();
      const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
      expect(head).toContain(`content-length: ${Buffer.byteLength(body)}`);
      expect(head).not.toContain("transfer-encoding");
      expect(head).toContain("connection: keep-alive");
      expect(JSON.parse(body)).toEqual({ status: "UP", state: "started" });
    } finally {
      await server.close(true);
      await platform.stop();
    }
  });
});

/** One GET over a raw socket; resolves with everything received until the answer is complete. */
function rawGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text);
      if (end !== -1 && length && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1])) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("error", reject);
    setTimeout(() => {
      socket.destroy();
      resolve(text);
    }, 5_000).unref();
  });
}
