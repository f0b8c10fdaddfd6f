import { describe, expect, it } from "vitest";
import { HttpExchange } from "./http-exchange.js";
import {
  holdResult,
  type PipelineContribution,
  type PipelinePlace,
  type PipelineStep,
  RequestPipeline,
} from "./request-pipeline.js";

function exchange(): HttpExchange {
  return new HttpExchange({
    method: "GET",
    url: "/x",
    headers: {},
    remoteAddress: "",
    readBody: async () => "",
  });
}

/** A plain step that logs its name (and may commit). */
function logging(log: string[], name: string, commit = false): PipelineStep {
  return {
    name,
    apply: (ex) => {
      log.push(name);
      if (commit) ex.json(200, { by: name });
    },
  };
}

describe("RequestPipeline", () => {
  it("orders steps by place, then before / at / after within a place, then contribution order", () => {
    const log: string[] = [];
    const at = (place: PipelinePlace, name: string): PipelineContribution => ({
      at: place,
      step: logging(log, name),
    });
    const pipeline = new RequestPipeline([
      { before: "authorization", step: logging(log, "host-before-authorization") },
      at("handler", "route"),
      at("authorization", "rules"),
      { after: "authentication", step: logging(log, "host-after-authentication") },
      at("firewall", "firewall"),
      at("authentication", "context"),
      { before: "authorization", step: logging(log, "second-before-authorization") },
      { after: "handler", step: logging(log, "after-route") },
    ]);
    expect(pipeline.stepNames()).toEqual([
      "firewall",
      "context",
      "host-after-authentication",
      "host-before-authorization",
      "second-before-authorization",
      "rules",
      "route",
      "after-route",
      "answer",
    ]);
    expect(pipeline.has("authorization")).toBe(true);
    expect(pipeline.has("chain")).toBe(false);
  });

  it("runs the steps in that order, around steps wrapping the rest", async () => {
    const log: string[] = [];
    const pipeline = new RequestPipeline([
      { at: "handler", step: logging(log, "route") },
      {
        at: "authentication",
        step: {
          name: "around",
          around: async (ex, next) => {
            log.push("around:in");
            await next(ex);
            log.push("around:out");
          },
        },
      },
      { at: "firewall", step: logging(log, "firewall") },
      { after: "authentication", step: { name: "async", apply: async () => void log.push("async") } },
    ]);
    await pipeline.run(exchange());
    expect(log).toEqual(["firewall", "around:in", "async", "route", "around:out"]);
  });

  it("stops at the first step that commits the exchange", async () => {
    const log: string[] = [];
    const ex = exchange();
    await new RequestPipeline([
      { at: "entry", step: logging(log, "entry-route", true) },
      { at: "authorization", step: logging(log, "rules") },
      { at: "handler", step: logging(log, "route") },
    ]).run(ex);
    expect(log).toEqual(["entry-route"]);
    expect(ex.response.body).toEqual({ by: "entry-route" });
  });

  it("holds the route's result for steps after the handler, and the answer commits it", async () => {
    const ex = exchange();
    let seen: unknown;
    await new RequestPipeline([
      { at: "handler", step: { name: "route", apply: (e) => holdResult(e, { n: 1 }) } },
      {
        after: "handler",
        step: {
          name: "wrap",
          apply: (e) => {
            seen = { committed: e.response.committed, body: e.response.body };
            e.response.body = { wrapped: e.response.body };
          },
        },
      },
    ]).run(ex);
    expect(seen).toEqual({ committed: false, body: { n: 1 } });
    expect(ex.response).toMatchObject({ committed: true, body: { wrapped: { n: 1 } } });
  });

  it("rejects (never throws) when a synchronous step throws", async () => {
    const pipeline = new RequestPipeline([
      {
        at: "firewall",
        step: {
          name: "boom",
          apply: () => {
            throw new Error("refused");
          },
        },
      },
    ]);
    let result: Promise<void> | undefined;
    expect(() => {
      result = pipeline.run(exchange());
    }).not.toThrow();
    await expect(result).rejects.toThrow("refused");
  });

  it("refuses an unknown place, and a step after the answer, with CONFIGURATION_INVALID", () => {
    const step = logging([], "x");
    expect(() => new RequestPipeline([{ before: "authorisation" as PipelinePlace, step }])).toThrow(
      expect.objectContaining({
        code: "CONFIGURATION_INVALID",
        message: expect.stringContaining('Unknown request pipeline place "authorisation"'),
      }),
    );
    expect(() => new RequestPipeline([{ after: "answer", step }])).toThrow(
      expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
    );
  });
});
