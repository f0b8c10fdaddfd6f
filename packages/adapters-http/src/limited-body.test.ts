import { isPlatformError } from "@keyward/core/errors";
import { describe, expect, it } from "vitest";
import { readLimitedText } from "./limited-body.js";

function streamOf(chunks: readonly Uint8Array[], onPull?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onPull?.();
        const chunk = chunks[i++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    },
    { highWaterMark: 0 }, // pull only when read, so the tests can count reads
  );
}

const bytes = (text: string) => new TextEncoder().encode(text);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isPlatformError(error) ? error.code : String(error);
  }
}

describe("readLimitedText", () => {
  it("reads a body within the limit", async () => {
    const source = { headers: new Headers(), body: streamOf([bytes("héllo "), bytes("wörld")]) };
    expect(await readLimitedText(source, 100)).toBe("héllo wörld");
  });

  it("reads an absent body as ''", async () => {
    expect(await readLimitedText({ headers: new Headers(), body: null }, 10)).toBe("");
  });

  it("refuses an honest Content-Length above the limit without reading", async () => {
    let pulled = 0;
    const source = {
      headers: new Headers({ "content-length": "101" }),
      body: streamOf([bytes("x")], () => pulled++),
    };
    expect(await codeOf(readLimitedText(source, 100))).toBe("PAYLOAD_TOO_LARGE");
    expect(pulled).toBe(0);
  });

  it("counts streamed bytes when Content-Length lies or is absent, and stops reading", async () => {
    let pulled = 0;
    const chunks = Array.from({ length: 50 }, () => new Uint8Array(40));
    const lying = { headers: new Headers({ "content-length": "5" }), body: streamOf(chunks, () => pulled++) };
    expect(await codeOf(readLimitedText(lying, 100))).toBe("PAYLOAD_TOO_LARGE");
    expect(pulled).toBeLessThan(10);
    const absent = { headers: new Headers(), body: streamOf(chunks) };
    expect(await codeOf(readLimitedText(absent, 100))).toBe("PAYLOAD_TOO_LARGE");
  });

  it("accepts exactly the limit", async () => {
    const source = { headers: new Headers(), body: streamOf([new Uint8Array(100).fill(0x61)]) };
    expect(await readLimitedText(source, 100)).toHaveLength(100);
  });

  it("refuses bytes that are not UTF-8 with MALFORMED_BODY", async () => {
    const source = { headers: new Headers(), body: streamOf([new Uint8Array([0x61, 0xff, 0xfe])]) };
    expect(await codeOf(readLimitedText(source, 100))).toBe("MALFORMED_BODY");
  });

  it("reports a stream that fails mid-body as CLIENT_ABORTED (the client hung up), keeping the cause", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(aborted);
        else controller.enqueue(bytes("1234567"));
        sent = true;
      },
    });
    const failure = await readLimitedText(
      { headers: new Headers({ "content-length": "100" }), body },
      1000,
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "CLIENT_ABORTED", cause: aborted });
  });

  it("refuses a body the host already read (CONFIGURATION_INVALID naming the remedy), never '' or an abort", async () => {
    const request = new Request("http://h/", { method: "POST", body: "{}" });
    await request.text(); // a body parser mounted before the platform
    const used = await readLimitedText(request, 100).catch((error: unknown) => error);
    expect(used).toMatchObject({ code: "CONFIGURATION_INVALID" });
    expect(String((used as Error).message)).toMatch(/before any body parser/);
    const locked = streamOf([bytes("{}")]);
    locked.getReader(); // a reader the host still holds
    expect(await codeOf(readLimitedText({ headers: new Headers(), body: locked }, 100))).toBe(
      "CONFIGURATION_INVALID",
    );
    // srvx's Node request over a drained IncomingMessage: a stream that fails with the fetch standard's TypeError.
    const unusable = new TypeError("Body is unusable: Body has already been read");
    const drained = new ReadableStream<Uint8Array>({ start: (c) => c.error(unusable) });
    const failure = await readLimitedText({ headers: new Headers(), body: drained }, 100).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: "CONFIGURATION_INVALID", cause: unusable });
  });

  it("keeps a multi-byte character split across chunks", async () => {
    const euro = bytes("€");
    const source = { headers: new Headers(), body: streamOf([euro.slice(0, 1), euro.slice(1)]) };
    expect(await readLimitedText(source, 10)).toBe("€");
  });
});
