import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BUNDLE_ROOT, loadBundleCatalog, parsePromptInput } from "@keyward/core/prompts";
import { readGoldenInputs } from "../../packages/core/src/prompts/manifest/bundle-root.js";
import { ManualClock } from "@keyward/core/testing";
import { analysePrompt } from "../../packages/core/src/decisions/analyst/offline-analyst.js";
import { selectionFromCatalog } from "../../packages/core/src/decisions/engine/bundle-selection.js";
import { LayeredDecisionEngine } from "../../packages/core/src/decisions/engine/layered-decision-engine.js";
import { OpenAiCompatibleModel } from "../../packages/core/src/decisions/openai/openai-compatible-model.js";

const V20 = "2026.09.15-v20";
const catalog = loadBundleCatalog();
const selection = selectionFromCatalog(catalog, V20, "CONFIGURATION");
const adminDelete = parsePromptInput(
  readGoldenInputs(DEFAULT_BUNDLE_ROOT, ["external-admin-delete"]).get("external-admin-delete"),
);

/** How the stand-in API answers one request. */
type Play = (req: IncomingMessage, body: Record<string, unknown>, res: ServerResponse) => void;

const KEY = "sk-test-0123456789abcdef";
const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { role: "assistant", content } }] });
const ok =
  (content: string): Play =>
  (_req, _body, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(completion(content));
const status =
  (code: number, headers: Record<string, string> = {}): Play =>
  (_req, _body, res) =>
    res.writeHead(code, { "content-type": "application/json", ...headers }).end('{"error":{"message":"no"}}');
const raw =
  (body: string): Play =>
  (_req, _body, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(body);
/** Plays the API with the offline analyst's answer to the prompts it is sent. */
const analyst: Play = (_req, body, res) => {
  const [system, user] = (body.messages as { content: string }[]).map((m) => m.content);
  ok(JSON.stringify(analysePrompt(system!, user!)))(_req, body, res);
};
const slow: Play = () => {};

let server: Server;
let baseUrl: string;
let plays: Play[] = [];
let seen: { headers: IncomingMessage["headers"]; url: string | undefined; body: Record<string, unknown> }[] =
  [];
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      seen.push({ headers: req.headers, url: req.url, body });
      open.add(res);
      res.on("close", () => open.delete(res));
      (plays.shift() ?? analyst)(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  for (const res of open) res.destroy();
  plays = [];
  seen = [];
});

const modelOf = (options: Partial<ConstructorParameters<typeof OpenAiCompatibleModel>[0]> = {}) =>
  new OpenAiCompatibleModel({ baseUrl, model: "gpt-4o-mini", apiKey: KEY, retryBackoffMs: 1, ...options });
const L1 = selection.bundle.budgets.find((p) => p.family === "L1")!;
const ask = (model = modelOf(), timeoutMs = 5000, signal = new AbortController().signal) =>
  model.complete("the system text", "the user text", { profile: L1, timeoutMs }, signal);

describe("the OpenAI-compatible model against a stand-in chat-completions server", () => {
  it("posts the chat completion the bundle asks for and returns the message text", async () => {
    plays = [ok('{"x":1}')];
    expect(await ask()).toBe('{"x":1}');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe("/v1/chat/completions");
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0]!.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "the system text" },
        { role: "user", content: "the user text" },
      ],
      temperature: 0,
      max_tokens: 400,
      response_format: { type: "json_object" },
    });
  });

  it("sends no Authorization header without a key (vLLM, Ollama)", async () => {
    plays = [ok("{}")];
    await ask(modelOf({ apiKey: undefined }));
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("gives up at the time budget on a slow server: DECISION_MODEL_TIMEOUT (deadline)", async () => {
    plays = [slow];
    await expect(ask(modelOf(), 150)).rejects.toMatchObject({
      code: "DECISION_MODEL_TIMEOUT",
      details: { reason: "deadline", timeoutMs: 150 },
    });
  });

  it("stops when the caller aborts: DECISION_MODEL_TIMEOUT (aborted)", async () => {
    plays = [slow];
    const controller = new AbortController();
    const pending = ask(modelOf(), 5000, controller.signal);
    while (seen.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      code: "DECISION_MODEL_TIMEOUT",
      details: { reason: "aborted" },
    });
  });

  it("retries a 500 and returns the answer that follows", async () => {
    plays = [status(500), ok("{}")];
    expect(await ask()).toBe("{}");
    expect(seen).toHaveLength(2);
  });

  it("retries a 429 after its Retry-After", async () => {
    plays = [status(429, { "retry-after": "0.01" }), ok("{}")];
    expect(await ask()).toBe("{}");
    expect(seen).toHaveLength(2);
  });

  it("gives up after the allowed retries of a server that always fails: DECISION_MODEL_UNAVAILABLE", async () => {
    plays = [status(500), status(502), status(503), ok("{}")];
    await expect(ask(modelOf({ maxRetries: 2 }))).rejects.toMatchObject({
      code: "DECISION_MODEL_UNAVAILABLE",
      details: { attempts: 3, status: 503 },
    });
    expect(seen).toHaveLength(3);
  });

  it("retries a network error and then reports the endpoint unavailable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const model = modelOf({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 });
    const error = await ask(model).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DECISION_MODEL_UNAVAILABLE", details: { attempts: 2 } });
    expect((error as { details: object }).details).not.toHaveProperty("status");
  });

  it("does not retry a refusal (401): DECISION_MODEL_REFUSED", async () => {
    plays = [status(401), ok("{}")];
    await expect(ask()).rejects.toMatchObject({ code: "DECISION_MODEL_REFUSED", details: { status: 401 } });
    expect(seen).toHaveLength(1);
  });

  it.each([
    ["a body that is not JSON", "<html>bad gateway</html>", "the body is not JSON"],
    ["no choices", '{"choices":[]}', "no choices"],
    [
      "a choice without text",
      '{"choices":[{"message":{"content":null}}]}',
      "the first choice has no message text",
    ],
  ])("reports %s as DECISION_MODEL_MALFORMED, without retrying", async (_name, body, problem) => {
    plays = [raw(body), ok("{}")];
    await expect(ask()).rejects.toMatchObject({ code: "DECISION_MODEL_MALFORMED", details: { problem } });
    expect(seen).toHaveLength(1);
  });

  it("never shows its key: not in its name, JSON, inspection, nor in any error", async () => {
    const model = modelOf();
    plays = [status(401)];
    const refused = await ask(model).catch((e: unknown) => e);
    plays = [slow];
    const late = await ask(model, 50).catch((e: unknown) => e);
    for (const shown of [model.name, JSON.stringify(model), inspect(model, { showHidden: true, depth: 9 })]) {
      expect(shown).not.toContain(KEY);
    }
    for (const error of [refused, late]) expect(inspect(error, { depth: 9 })).not.toContain(KEY);
    expect(JSON.parse(JSON.stringify(model))).toMatchObject({
      apiKey: "(set)",
      name: "openai-compatible:gpt-4o-mini",
    });
  });
});

describe("the decision engine through the OpenAI-compatible model", () => {
  const engine = (model: OpenAiCompatibleModel) =>
    new LayeredDecisionEngine({
      model,
      clock: new ManualClock(),
      escalationConfidence: 0.7,
      timeouts: { L1: 5000, L2: 20000 },
    });
  const decide = (model = modelOf()) =>
    engine(model).decide(adminDelete, selection, new AbortController().signal);

  it("decides as the analyst does when the server answers with the analyst's answer", async () => {
    const { record } = await decide();
    expect(record).toMatchObject({ action: "BLOCK", layer: "L1", model: "openai-compatible:gpt-4o-mini" });
    expect(seen[0]!.body.max_tokens).toBe(400);
  });

  it("asks once more after message text that is not JSON, then takes the good answer", async () => {
    plays = [ok("I think this is risky.")];
    const { record, layers } = await decide();
    expect(layers[0]!.attempts.map((a) => a.outcome)).toEqual(["ANSWER_NOT_JSON", "ACCEPTED"]);
    expect(record.action).toBe("BLOCK");
  });

  it("falls back, L1 then L2 with its larger output budget, when the server always fails", async () => {
    plays = Array.from({ length: 6 }, () => status(500));
    const { record } = await decide(modelOf({ maxRetries: 2 }));
    expect(seen.map((s) => s.body.max_tokens)).toEqual([400, 400, 400, 1000, 1000, 1000]);
    expect(record).toMatchObject({
      layer: "L2",
      action: "ESCALATE",
      riskScore: null,
      fallback: { code: "DECISION_MODEL_UNAVAILABLE" },
    });
  });
});
