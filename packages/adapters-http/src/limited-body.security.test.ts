import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CapturedLog, startTestServer, type TestServer } from "./test-support.js";

// A client that hangs up mid-body, over a real socket: Node fails the body stream with `aborted`
// (ECONNRESET). That is the client's doing, not a server error: no 500, no stack, at most a debug line.

/** Writes `head` and `partial` bytes, waits until the route has started (`started`), then destroys the socket. */
function abortMidBody(port: number, head: string, partial: string, started: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.on("error", () => {}); // our own destroy may surface as ECONNRESET
    socket.on("connect", () => {
      socket.write(head + partial, async () => {
        for (let i = 0; i < 400 && !started(); i++) await new Promise((r) => setTimeout(r, 5));
        socket.destroy();
      });
    });
    socket.on("close", () => resolve());
    setTimeout(() => reject(new Error("socket did not close")), 5_000).unref();
  });
}

async function waitForEntries(entries: readonly CapturedLog[], count: number): Promise<void> {
  for (let i = 0; i < 200 && entries.length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

describe("a client that aborts mid-body", () => {
  let t: TestServer;
  let reads = 0;
  beforeAll(async () => {
    t = await startTestServer(
      (app) =>
        app.routes.add({
          method: "POST",
          path: "/echo",
          handler: async (ex) => {
            reads++;
            return { length: (await ex.text()).length };
          },
        }),
      // The error log alone: access lines (one per request, aborted ones too) are tested elsewhere.
      { properties: { "platform.http.access-log.enabled": false } },
    );
  });
  afterAll(() => t.close());

  it.each([
    ["Content-Length: 100, 7 bytes sent", "Content-Length: 100\r\n", "1234567"],
    ["a chunked body cut inside a chunk", "Transfer-Encoding: chunked\r\n", "a\r\n1234567"],
    ["a chunked body cut between chunks", "Transfer-Encoding: chunked\r\n", "7\r\n1234567\r\n"],
  ])("%s: logged as one debug line without a stack, never as an error", async (_name, framing, partial) => {
    t.logger.entries.length = 0;
    const before = reads;
    const head = `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n${framing}\r\n`;
    await abortMidBody(t.server.port, head, partial, () => reads > before);
    await waitForEntries(t.logger.entries, 1);
    expect(reads).toBe(before + 1); // the route did start reading the body
    const entries = t.logger.entries.map(({ level, message, fields }) => ({ level, message, fields }));
    expect(entries).toEqual([
      {
        level: "debug",
        message: "request aborted by the client",
        fields: { correlationId: expect.any(String), method: "POST", path: "/echo" },
      },
    ]);
    expect(t.logger.entries[0]!.line).not.toMatch(/stack|at .*\(node:/);
  });

  it("a hundred aborts log no error and the server keeps answering", async () => {
    t.logger.entries.length = 0;
    const head = "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n";
    const before = reads;
    await Promise.all(
      Array.from({ length: 100 }, () =>
        abortMidBody(t.server.port, head, "1234567", () => reads >= before + 100),
      ),
    );
    await waitForEntries(t.logger.entries, 100);
    expect(t.logger.entries.filter((e) => e.level !== "debug")).toEqual([]);
    expect(t.logger.entries).toHaveLength(100);
    expect((await t.fetch("/echo", { method: "POST", body: "hello" })).status).toBe(200);
  });
});
