import { request as httpRequest } from "node:http";
import { PlatformError } from "@keyward/core/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, startTestServer, type TestServer } from "./test-support.js";

const LIMIT = 64 * 1024;

/** Sends a chunked body (no Content-Length) with node:http, so nothing tells the server the size up front. */
function postChunked(
  url: string,
  chunks: readonly string[],
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          body += d;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
        );
      },
    );
    // The server may answer (and drop the rest) before we finish sending: that is the point.
    req.on("error", (error) => reject(error));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("createHttpApp: hostile and malformed input", () => {
  let t: TestServer;
  let counter = 0;
  const Signup = z.object({ email: z.string().email(), name: z.string().min(1) });

  beforeAll(async () => {
    t = await startTestServer(
      ({ routes }) => {
        routes.add({
          method: "POST",
          path: "/count",
          handler: async (ex) => {
            const fields = await ex.fields(["json"]);
            counter++;
            return { counter, keys: Object.keys(fields) };
          },
        });
        routes.add({
          method: "POST",
          path: "/signup",
          handler: async (ex) => {
            const parsed = Signup.safeParse(await ex.fields());
            if (!parsed.success) {
              throw new PlatformError("VALIDATION_FAILED", "Invalid sign-up", {
                details: { fields: parsed.error.issues.map((i) => i.path.join(".")) },
              });
            }
            counter++;
            return { ok: true };
          },
        });
        routes.add({
          method: "POST",
          path: "/merge",
          handler: async (ex) => {
            const merged: Record<string, unknown> = Object.assign({}, await ex.fields());
            return { keys: Object.keys(merged) };
          },
        });
        routes.add({ method: "GET", path: "/echo/{value}", handler: (ex) => ({ path: ex.path }) });
      },
      { properties: { "platform.http.max-body-size": "64KiB" } },
    );
  });
  afterAll(async () => t.close());

  const post = (path: string, body: string, contentType = "application/json") =>
    t.fetch(path, { method: "POST", headers: { "content-type": contentType }, body });

  it("counts a well-formed request", async () => {
    const before = counter;
    const res = await post("/count", '{"a":1}');
    expect(res.status).toBe(200);
    expect(counter).toBe(before + 1);
  });

  it("answers 400 MALFORMED_JSON and changes nothing", async () => {
    const before = counter;
    const res = await post("/count", '{"a":');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "MALFORMED_JSON" });
    expect(counter).toBe(before);
  });

  it("answers 400 MALFORMED_BODY for JSON that is not an object", async () => {
    const res = await post("/count", "[1,2]");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "MALFORMED_BODY" });
  });

  it("answers 415 UNSUPPORTED_MEDIA_TYPE for another content type and changes nothing", async () => {
    const before = counter;
    const res = await post("/count", "<a/>", "application/xml");
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    const form = await post("/count", "a=1", "application/x-www-form-urlencoded");
    expect(form.status).toBe(415);
    expect(counter).toBe(before);
  });

  it("answers 413 for an honest Content-Length above the limit and changes nothing", async () => {
    const before = counter;
    const res = await post("/count", JSON.stringify({ big: "x".repeat(LIMIT * 2) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", limit: LIMIT });
    expect(counter).toBe(before);
  });

  it("answers 413 for a chunked body without Content-Length and changes nothing", async () => {
    const before = counter;
    const chunk = "x".repeat(16 * 1024);
    const chunks = ['{"big":"', ...Array.from({ length: 8 }, () => chunk), '"}'];
    const res = await postChunked(`${t.server.url}/count`, chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    // The rest of the body is never read, so the connection must not be reused for another request.
    expect(res.connection).toBe("close");
    expect(counter).toBe(before);
  });

  it("accepts a chunked body under the limit", async () => {
    const res = await postChunked(`${t.server.url}/count`, ['{"a"', ":1}"]);
    expect(res.status).toBe(200);
  });

  it("answers 400 VALIDATION_FAILED naming the missing fields and changes nothing", async () => {
    const before = counter;
    const res = await post("/signup", JSON.stringify({ email: "not-an-email" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "VALIDATION_FAILED", fields: ["email", "name"] });
    expect(counter).toBe(before);
  });

  it("refuses deeply nested JSON with 400 MALFORMED_BODY instead of overflowing later", async () => {
    const depth = 10_000;
    const body = `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const res = await post("/count", body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "MALFORMED_BODY" });
    const nestedObjects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect((await post("/count", nestedObjects)).status).toBe(400);
    expect((await post("/count", '{"a":[[[1]]]}')).status).toBe(200);
  });

  it("does not let __proto__ in a body pollute Object.prototype", async () => {
    const res = await post(
      "/merge",
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"p2": 1}}}',
    );
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).p2).toBeUndefined();
    const form = await post(
      "/merge",
      "__proto__[polluted]=yes&__proto__=x",
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers a very long URL with a 4xx and keeps serving", async () => {
    const long = await t.fetch(`/echo/${"a".repeat(8_000)}`);
    expect(long.status).toBe(200);
    const tooLong = await rawRequest(
      t.server.port,
      `GET /echo/${"a".repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(tooLong.status).toBeGreaterThanOrEqual(400);
    expect(tooLong.status).toBeLessThan(500);
    expect((await t.fetch("/echo/ok")).status).toBe(200);
  });

  it("answers NUL bytes in the path with a JSON 4xx, never reaching a route with them", async () => {
    const encoded = await t.fetch("/count%00");
    expect(encoded.status).toBe(404);
    expect(await encoded.json()).toMatchObject({ code: "NOT_FOUND" });
    const raw = await rawRequest(
      t.server.port,
      "GET /echo/a\u0000b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    expect(raw.status).toBe(400);
  });

  it("answers non-UTF-8 bytes in the path with 400 BAD_REQUEST JSON", async () => {
    const encoded = await t.fetch("/echo/%FF%FE");
    expect(encoded.status).toBe(400);
    expect(await encoded.json()).toMatchObject({ code: "BAD_REQUEST" });
    const raw = await rawRequest(
      t.server.port,
      "GET /echo/\xff\xfe HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
  });

  it("answers non-UTF-8 bytes in a JSON body with 400 MALFORMED_BODY and changes nothing", async () => {
    const before = counter;
    const res = await t.fetch("/count", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "MALFORMED_BODY" });
    expect(counter).toBe(before);
  });
});

// Remote address and forwarded headers over a socket: exchange-binding.security.test.ts.
