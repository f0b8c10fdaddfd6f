import { describe, expect, it } from "vitest";
import { readCappedText } from "./read-capped-text.js";

/** A streamed body of `chunks`, counting what was pulled and whether the reader cancelled it. */
function streamed(chunks: Iterable<Uint8Array>, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const source = chunks[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = source.next();
      if (next.done) return controller.close();
      seen.pulled += next.value.byteLength;
      controller.enqueue(next.value);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

function* forever(chunk: Uint8Array): Generator<Uint8Array> {
  for (;;) yield chunk;
}

const KIB = new Uint8Array(1024).fill(0x61);

describe("readCappedText", () => {
  it("returns a body within the cap, multi-byte characters split across chunks intact", async () => {
    const euro = new TextEncoder().encode("price: €5");
    const { response } = streamed([euro.slice(0, 8), euro.slice(8)]);
    expect(await readCappedText(response, 1024)).toBe("price: €5");
  });

  it("takes a body of exactly the cap", async () => {
    const { response } = streamed([KIB, KIB]);
    expect(await readCappedText(response, 2048)).toHaveLength(2048);
  });

  it("stops a never-ending body one chunk past the cap and cancels it: MODEL_ANSWER_TOO_LARGE", async () => {
    const { response, seen } = streamed(forever(KIB));
    await expect(readCappedText(response, 64 * 1024)).rejects.toMatchObject({
      code: "MODEL_ANSWER_TOO_LARGE",
      details: { limitBytes: 65_536 },
    });
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(66 * 1024);
  });

  it("refuses a declared Content-Length over the cap before reading anything", async () => {
    const { response, seen } = streamed(forever(KIB), { "content-length": String(150 * 1024 * 1024) });
    await expect(readCappedText(response, 1024)).rejects.toMatchObject({
      code: "MODEL_ANSWER_TOO_LARGE",
      details: { limitBytes: 1024, declaredBytes: 157_286_400 },
    });
    expect(seen).toEqual({ pulled: 0, cancelled: true });
  });

  it("does not trust a small Content-Length: the counter still stops the body", async () => {
    const { response, seen } = streamed(forever(KIB), { "content-length": "10" });
    await expect(readCappedText(response, 4096)).rejects.toMatchObject({ code: "MODEL_ANSWER_TOO_LARGE" });
    expect(seen.cancelled).toBe(true);
  });

  it("reads a response without a body as empty text", async () => {
    expect(await readCappedText(new Response(null), 10)).toBe("");
  });
});
