import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPlatform } from "@keyward/core";
import { createDecisionsPlugin } from "@keyward/core/decisions";
import { DecisionModel } from "@keyward/core/ports";
import { DEFAULT_BUNDLE_ROOT, loadBundleCatalog, parsePromptInput } from "@keyward/core/prompts";
import { readGoldenInputs } from "../../packages/core/src/prompts/manifest/bundle-root.js";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { selectionFromCatalog } from "../../packages/core/src/decisions/engine/bundle-selection.js";
import { LayeredDecisionEngine } from "../../packages/core/src/decisions/engine/layered-decision-engine.js";
import { OpenAiCompatibleModel } from "../../packages/core/src/decisions/openai/openai-compatible-model.js";

// Issue #25 item 7: a hostile or broken endpoint answered 150 MB (the server grew by 600 MB) and
// redirects were followed. Every answer here comes from a real HTTP server on 127.0.0.1.

type Play = (req: IncomingMessage, res: ServerResponse) => void;
const completion = (content: string) => JSON.stringify({ choices: [{ message: { content } }] });
const CAP = 64 * 1024;

let server: Server;
let base: string;
let plays: Play[] = [];
let seen: string[] = [];
/** Bytes the server managed to write to each response before it was closed. */
let written: number[] = [];
const open = new Set<ServerResponse>();

/** Writes 64 KiB chunks for as long as the client reads; records how much went out. */
const endless: Play = (_req, res) => {
  const index = written.push(0) - 1;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"choices":[{"message":{"content":"');
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) written[index]! += chunk.length;
    if (!res.destroyed) res.once("drain", pump);
  };
  pump();
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push(req.url ?? "");
      open.add(res);
      res.on("close", () => open.delete(res));
      (plays.shift() ?? ((_q, r) => r.writeHead(200).end(completion("{}"))))(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  plays = [];
  seen = [];
  written = [];
});

const model = () =>
  new OpenAiCompatibleModel({ baseUrl: `${base}/v1`, model: "m", maxAnswerBytes: CAP, retryBackoffMs: 1 });
const selection = selectionFromCatalog(loadBundleCatalog(), "2026.09.15-v20", "CONFIGURATION");
const L1 = selection.bundle.budgets.find((p) => p.family === "L1")!;
const ask = (m = model()) =>
  m.complete("s", "u", { profile: L1, timeoutMs: 10_000 }, new AbortController().signal);

describe("the OpenAI-compatible model's answer size and redirects", () => {
  it("refuses a chat completion over the cap, without retrying: MODEL_ANSWER_TOO_LARGE", async () => {
    plays = [(_req, res) => res.writeHead(200).end(completion("x".repeat(2 * CAP)))];
    await expect(ask()).rejects.toMatchObject({
      code: "MODEL_ANSWER_TOO_LARGE",
      details: { limitBytes: CAP },
    });
    expect(seen).toHaveLength(1);
  });

  it("stops reading a never-ending body past the cap and drops the connection", async () => {
    plays = [endless];
    const started = Date.now();
    await expect(ask()).rejects.toMatchObject({
      code: "MODEL_ANSWER_TOO_LARGE",
      details: { limitBytes: CAP },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(open.size).toBe(0);
    // What left the server is the cap plus the sockets' buffers, not the endless body.
    expect(written[0]!).toBeLessThan(32 * 1024 * 1024);
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    plays = [
      (_req, res) => {
        res.writeHead(200, { "content-length": String(150 * 1024 * 1024) });
        res.write(Buffer.alloc(1024, 0x20));
      },
    ];
    await expect(ask()).rejects.toMatchObject({
      code: "MODEL_ANSWER_TOO_LARGE",
      details: { declaredBytes: 157_286_400 },
    });
  });

  it("does not follow a 302 (the key and the prompt stay home): MODEL_REDIRECT_REFUSED", async () => {
    plays = [(_req, res) => res.writeHead(302, { location: `${base}/elsewhere/chat/completions` }).end()];
    await expect(ask()).rejects.toMatchObject({ code: "MODEL_REDIRECT_REFUSED", details: { status: 302 } });
    expect(seen).toEqual(["/v1/chat/completions"]);
  });

  it("fails closed: the engine decides the bundle's fallback, naming the refusal", async () => {
    plays = [endless, endless];
    const engine = new LayeredDecisionEngine({
      model: model(),
      clock: new ManualClock(),
      escalationConfidence: 0.7,
      timeouts: { L1: 10_000, L2: 10_000 },
    });
    const input = readGoldenInputs(DEFAULT_BUNDLE_ROOT, ["internal-read"]).get("internal-read");
    const { record } = await engine.decide(parsePromptInput(input), selection, new AbortController().signal);
    expect(record).toMatchObject({
      action: "ESCALATE",
      riskScore: null,
      fallback: { code: "MODEL_ANSWER_TOO_LARGE" },
    });
  });

  it("takes its cap from platform.security.decision.model.max-answer-size", () => {
    const platform = createPlatform({
      plugins: [createDecisionsPlugin({ env: {} })],
      properties: {
        "platform.security.decision.enabled": false,
        "platform.security.decision.model.provider": "openai-compatible",
        "platform.security.decision.model.max-answer-size": "128KiB",
      },
    });
    expect(JSON.parse(JSON.stringify(platform.resolve(DecisionModel)))).toMatchObject({
      maxAnswerBytes: 131_072,
    });
  });
});
