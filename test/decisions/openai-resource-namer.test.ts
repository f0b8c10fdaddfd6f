import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authzPlugin, createPlatform, resourcesPlugin } from "@keyward/core";
import { decisionsPlugin } from "@keyward/core/decisions";
import { type LogFields, Logger, ResourceNamer } from "@keyward/core/ports";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { offlineResourceName } from "../../packages/core/src/resources/offline-resource-namer.js";
import { ResourceNaming, type ScannedResource } from "../../packages/core/src/resources/scanned-resource.js";
import { OpenAiResourceNamer } from "../../packages/core/src/decisions/openai/openai-resource-namer.js";

// A real HTTP server on 127.0.0.1 plays an OpenAI-compatible chat-completions API. By default it
// answers as a good model would (the offline namer's names, upper-cased to tell them apart); a test
// queues other plays for the next requests.

type Play = (req: IncomingMessage, body: string, res: ServerResponse) => void;
interface Seen {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: { model: string; messages: { role: string; content: string }[]; response_format: unknown };
}

const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { role: "assistant", content } }] });
const answer = (res: ServerResponse, content: string) =>
  res.writeHead(200, { "content-type": "application/json" }).end(completion(content));

/** The resources a request asked about, as the namer described them. */
function askedOf(body: string): { index: number; method: string; path?: string }[] {
  const user = (JSON.parse(body) as Seen["body"]).messages.find((m) => m.role === "user")!;
  return (JSON.parse(user.content) as { resources: { index: number; method: string; path?: string }[] })
    .resources;
}

/** Answers like a good model: one upper-cased offline name per URL resource asked about. */
const goodModel: Play = (_req, body, res) => {
  const names = askedOf(body).map((r) => {
    const named = offlineResourceName(url(r.method as "GET", r.path ?? "/"));
    return { index: r.index, friendlyName: named.friendlyName.toUpperCase(), description: named.description };
  });
  answer(res, JSON.stringify({ names }));
};

let server: Server;
let base: string;
let plays: Play[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      if (req.url === "/v1/chat/completions") {
        seen.push({
          url: req.url,
          authorization: req.headers.authorization,
          body: JSON.parse(text) as Seen["body"],
        });
      } else
        seen.push({ url: req.url ?? "", authorization: req.headers.authorization, body: undefined as never });
      (plays.shift() ?? goodModel)(req, text, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  plays = [];
  seen = [];
});

function url(httpMethod: "GET" | "POST" | "DELETE", path: string): ScannedResource {
  return {
    resourceIdentifier: path,
    resourceType: "URL",
    httpMethod,
    friendlyName: `app.${httpMethod} ${path}`,
    description: `URL: [${httpMethod}] ${path}`,
    serviceOwner: "app",
  };
}

const BATCH = [
  url("DELETE", "/api/orders/{id}"),
  url("GET", "/api/orders"),
  url("POST", "/api/users/{id}/password"),
];
const namer = (maxAnswerBytes?: number) =>
  new OpenAiResourceNamer({
    baseUrl: `${base}/v1/`,
    model: "namer-model",
    apiKey: "sk-test-secret",
    ...(maxAnswerBytes ? { maxAnswerBytes } : {}),
  });
const ask = (batch = BATCH, n = namer()) => n.name(batch, AbortSignal.timeout(5_000));

describe("the OpenAI-compatible resource namer", () => {
  it("asks the chat-completions endpoint once per batch and answers its names in batch order", async () => {
    plays = [
      (_req, body, res) => {
        const names = askedOf(body).map((r) => ({
          index: r.index,
          friendlyName: `Name ${r.index}`,
          description: `About ${r.path}`,
        }));
        answer(res, JSON.stringify({ names: names.reverse() })); // out of order, indexed: put back in order
      },
    ];
    expect(await ask()).toEqual([
      { friendlyName: "Name 0", description: "About /api/orders/{id}" },
      { friendlyName: "Name 1", description: "About /api/orders" },
      { friendlyName: "Name 2", description: "About /api/users/{id}/password" },
    ]);
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call).toMatchObject({ url: "/v1/chat/completions", authorization: "Bearer sk-test-secret" });
    expect(call!.body).toMatchObject({ model: "namer-model", response_format: { type: "json_object" } });
    expect(call!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.parse(call!.body.messages[1]!.content)).toEqual({
      resources: [
        { index: 0, type: "URL", method: "DELETE", path: "/api/orders/{id}", owner: "app" },
        { index: 1, type: "URL", method: "GET", path: "/api/orders", owner: "app" },
        { index: 2, type: "URL", method: "POST", path: "/api/users/{id}/password", owner: "app" },
      ],
    });
    expect(JSON.stringify(namer())).not.toContain("sk-test-secret");
  });

  it("cleans hostile names: HTML, control and bidi characters, overlong text", async () => {
    plays = [
      (_req, _body, res) =>
        answer(
          res,
          JSON.stringify({
            names: [
              {
                friendlyName: '<img src=x onerror="alert(1)">Cancel\u0007 an\u202e order',
                description: "<b>Cancels</b>\nit",
              },
              { friendlyName: `List ${"orders ".repeat(40)}`, description: "x".repeat(900) },
              { friendlyName: "<<>>", description: "only markup" },
            ],
          }),
        ),
    ];
    const [first, second, third] = await ask();
    expect(first).toEqual({ friendlyName: "Cancel an order", description: "Cancels it" });
    expect(second!.friendlyName.length).toBeLessThanOrEqual(80);
    expect(second!.friendlyName).toMatch(/^List orders orders/);
    expect(second!.description).toHaveLength(300);
    // Nothing left: an empty name, which the naming service replaces with the offline one.
    expect(third).toEqual({ friendlyName: "", description: "" });
  });

  it.each([
    [
      "a wrong count",
      JSON.stringify({ names: [{ friendlyName: "A", description: "a" }] }),
      "1 names for 3 resources",
    ],
    [
      "indexes that are not the batch's",
      JSON.stringify({ names: [0, 0, 1].map((index) => ({ index, friendlyName: "A", description: "a" })) }),
      "the indexes are not the batch's",
    ],
    [
      "an entry past 1,000 characters",
      JSON.stringify({ names: [0, 1, 2].map(() => ({ friendlyName: "A".repeat(1001), description: "a" })) }),
      "the message is not a list of names",
    ],
    [
      "a name that is no string",
      JSON.stringify({ names: [0, 1, 2].map(() => ({ friendlyName: 7, description: "a" })) }),
      "the message is not a list of names",
    ],
    ["text that is not JSON", "Sure! Here are the names: ...", "the message is not JSON"],
  ])("refuses %s: RESOURCE_NAMER_FAILED", async (_label, content, problem) => {
    plays = [(_req, _body, res) => answer(res, content)];
    await expect(ask()).rejects.toMatchObject({ code: "RESOURCE_NAMER_FAILED", details: { problem } });
  });

  it("refuses what is not a chat completion, an error status, a redirect and an answer past the cap", async () => {
    plays = [(_req, _body, res) => res.writeHead(200).end('{"no":"choices"}')];
    await expect(ask()).rejects.toMatchObject({ code: "DECISION_MODEL_MALFORMED" });
    plays = [(_req, _body, res) => res.writeHead(503).end("busy")];
    await expect(ask()).rejects.toMatchObject({ code: "RESOURCE_NAMER_FAILED", details: { status: 503 } });
    plays = [(_req, _body, res) => res.writeHead(307, { location: `${base}/elsewhere` }).end()];
    await expect(ask()).rejects.toMatchObject({ code: "MODEL_REDIRECT_REFUSED" });
    expect(seen.map((s) => s.url)).not.toContain("/elsewhere");
    plays = [(_req, _body, res) => answer(res, JSON.stringify({ names: [], pad: "x".repeat(10_000) }))];
    await expect(ask(BATCH, namer(4_096))).rejects.toMatchObject({ code: "MODEL_ANSWER_TOO_LARGE" });
  });
});

describe("naming through the platform with platform.authz.resources.namer=openai", () => {
  it("uses the decision model's endpoint; a batch failing twice takes offline names, the others the model's", async () => {
    const warnings: LogFields[] = [];
    const logger: Logger = { info() {}, error() {}, warn: (_m, fields = {}) => void warnings.push(fields) };
    const platform = createPlatform({
      plugins: [decisionsPlugin, authzPlugin, resourcesPlugin],
      env: { NAMER_KEY: "sk-platform" },
      register: (c) => c.registerInstance(Logger, logger),
      properties: {
        "platform.security.decision.enabled": false,
        "platform.authz.resources.namer": "openai",
        "platform.security.decision.model.base-url": `${base}/v1`,
        "platform.security.decision.model.name": "namer-model",
        "platform.security.decision.model.api-key-env": "NAMER_KEY",
      },
    });
    expect(platform.resolve(ResourceNamer)).toBeInstanceOf(OpenAiResourceNamer);
    const routes = Array.from({ length: 12 }, (_, i) => url("GET", `/api/widget${i}s`));
    // Batch 1 (10 routes) fails on both attempts; batch 2 (2 routes) is answered.
    plays = [(_req, _body, res) => res.writeHead(500).end(), (_req, _body, res) => answer(res, "{}")];
    const names = await platform.resolve(ResourceNaming).nameAll(routes);
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.authorization === "Bearer sk-platform")).toBe(true);
    expect(names.slice(0, 10)).toEqual(routes.slice(0, 10).map(offlineResourceName));
    expect(names.slice(10).map((n) => n.friendlyName)).toEqual(["LIST WIDGET10S", "LIST WIDGET11S"]);
    expect(warnings.map((w) => [w.attempt, w.code])).toEqual([
      [1, "RESOURCE_NAMER_FAILED"],
      [2, "RESOURCE_NAMER_FAILED"],
    ]);
    expect(JSON.stringify(warnings)).not.toContain("sk-platform");
  });

  it("is the offline namer by default, and openai without the decisions plugin stops start-up", () => {
    const offline = createPlatform({ plugins: [authzPlugin, resourcesPlugin], env: {} });
    expect(offline.resolve(ResourceNamer).id).toBe("offline");
    expect(() =>
      createPlatform({
        plugins: [authzPlugin, resourcesPlugin],
        env: {},
        properties: { "platform.authz.resources.namer": "openai" },
      }),
    ).toThrow(expect.objectContaining({ code: "CONFIGURATION_INVALID" }));
  });
});
