import { describe, expect, it } from "vitest";
import { callOpenAiCompatible } from "./call-openai-compatible.js";

/** A fetch that answers `response` and keeps the init it was called with. */
function answering(response: Response) {
  const calls: RequestInit[] = [];
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    calls.push(init);
    return response;
  }) as unknown as typeof fetch;
  return { fetchImpl, calls };
}

const request = (fetchImpl: typeof fetch, maxAnswerBytes?: number) =>
  callOpenAiCompatible({
    url: "http://model.test/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: "{}",
    signal: new AbortController().signal,
    fetch: fetchImpl,
    ...(maxAnswerBytes === undefined ? {} : { maxAnswerBytes }),
  });

describe("callOpenAiCompatible", () => {
  it("asks fetch not to follow redirects and returns a 2xx body", async () => {
    const { fetchImpl, calls } = answering(new Response('{"ok":1}', { status: 200 }));
    expect(await request(fetchImpl)).toMatchObject({ status: 200, text: '{"ok":1}' });
    expect(calls[0]).toMatchObject({ method: "POST", redirect: "manual", body: "{}" });
  });

  it.each([301, 302, 303, 307, 308])("refuses a %i redirect: MODEL_REDIRECT_REFUSED", async (status) => {
    const { fetchImpl } = answering(
      new Response("moved", { status, headers: { location: "https://elsewhere.test/v1" } }),
    );
    await expect(request(fetchImpl)).rejects.toMatchObject({
      code: "MODEL_REDIRECT_REFUSED",
      details: { status },
    });
  });

  it("returns an error status without reading its body", async () => {
    let cancelled = false;
    const body = new ReadableStream({
      cancel() {
        cancelled = true;
      },
    });
    const { fetchImpl } = answering(new Response(body, { status: 503, headers: { "retry-after": "1" } }));
    const answer = await request(fetchImpl);
    expect(answer).toMatchObject({ status: 503, text: undefined });
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(cancelled).toBe(true);
  });

  it("reads the body within the cap it is given", async () => {
    const { fetchImpl } = answering(new Response("x".repeat(5000)));
    await expect(request(fetchImpl, 4096)).rejects.toMatchObject({ code: "MODEL_ANSWER_TOO_LARGE" });
  });
});
