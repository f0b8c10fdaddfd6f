import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { V19_BUNDLE } from "../../prompts/bundles/v19-bundle.js";
import { V20_BUNDLE } from "../../prompts/bundles/v20-bundle.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { OfflineAnalyst } from "../analyst/offline-analyst.js";
import { golden, ScriptedModel, selectionOf } from "../decisions.fixture.js";
import type { DecisionModel } from "../model/decision-model.js";
import { LayeredDecisionEngine } from "./layered-decision-engine.js";

const clock = new ManualClock(Date.UTC(2026, 6, 30));
const engineOf = (model: DecisionModel) =>
  new LayeredDecisionEngine({ model, clock, escalationConfidence: 0.7, timeouts: { L1: 5000, L2: 20000 } });
const live = () => new AbortController().signal;
const decide = (model: DecisionModel, name: string, bundle = V20_BUNDLE, signal = live()) =>
  engineOf(model).decide(golden(name), selectionOf(bundle), signal);

describe("the layered decision engine", () => {
  it("decides a confident L1 answer alone and records bundle, source, model and timings", async () => {
    const { record, layers } = await decide(new OfflineAnalyst(), "internal-read");
    expect(record).toEqual({
      eventId: "evt-0001",
      action: "ALLOW",
      riskScore: 0.05,
      confidence: 0.95,
      reasons: [],
      layer: "L1",
      bundle: { version: "2026.09.15-v20", hash: selectionOf().bundleHash, layout: "v20-dictionary-blocks" },
      selectionSource: "CONFIGURATION",
      model: "builtin:offline-analyst/1",
      timings: { startedAt: clock.now(), totalMs: 0, layers: [{ layer: "L1", ms: 0 }] },
    });
    expect(layers).toHaveLength(1);
    expect(layers[0]!.user).toBe(V20_BUNDLE.render(golden("internal-read"), V20_BUNDLE.budgets[0]!).user);
  });

  it("blocks the external admin delete at L1 with its reasons; the floors hold but do not raise a BLOCK", async () => {
    const { record } = await decide(new OfflineAnalyst(), "external-admin-delete");
    expect(record).toMatchObject({ action: "BLOCK", riskScore: 1, layer: "L1" });
    expect(record.reasons).toContainEqual({ code: "UNTRUSTED_DEVICE", refs: ["F16"] });
    expect(record.floor).toBeUndefined();
  });

  it("asks L2 with its own budget when L1 is not confident, and floors L2's action (MAR-3)", async () => {
    const model = new ScriptedModel();
    const { record, layers } = await decide(model, "every-fact-missing");
    expect(model.calls.map((c) => [c.budget.profile.name, c.budget.timeoutMs])).toEqual([
      ["L1-standard", 5000],
      ["L2-deep", 20000],
    ]);
    expect(model.calls[1]!.system).toContain("You are the second analysis");
    expect(layers.map((l) => [l.layer, l.escalated])).toEqual([
      ["L1", "LOW_CONFIDENCE"],
      ["L2", undefined],
    ]);
    expect(record).toMatchObject({
      layer: "L2",
      action: "CHALLENGE",
      confidence: 0.65,
      floor: { rule: "MAR-3", atLeast: "CHALLENGE", raisedFrom: "ALLOW" },
    });
  });

  it("decides an ordinary sign-in at L1 and asks L2 about one on the edge of two bands (the offline analyst)", async () => {
    const signIn = (network: string, accountAgeDays: number) =>
      parsePromptInput({
        eventId: "evt-sign-in",
        request: { subject: "user", time: "2026-07-30T10:00:00.000Z", roles: ["ROLE_USER"], network },
        identity: { accountAgeDays },
        context: { coverage: ["identity", "request"] },
        markedMissing: ["request.device"],
      });
    for (const bundle of [V19_BUNDLE, V20_BUNDLE]) {
      const model = new ScriptedModel();
      const engine = engineOf(model);
      const ordinary = await engine.decide(signIn("127.0.0.1", 0), selectionOf(bundle), live());
      // The model answers ALLOW; a bundle floor may still raise it (v20 MAR-3: a sign-in names no target).
      expect(ordinary.record).toMatchObject({ layer: "L1", riskScore: 0.15, confidence: 0.83 });
      expect(model.calls).toHaveLength(1);
      const edge = await engine.decide(signIn("203.0.113.7", 400), selectionOf(bundle), live());
      expect(edge.layers.map((l) => [l.layer, l.escalated])).toEqual([
        ["L1", "LOW_CONFIDENCE"],
        ["L2", undefined],
      ]);
      expect(model.calls).toHaveLength(3);
    }
  });

  it("asks L2 when L1 answers ESCALATE, however confident", async () => {
    const model = new ScriptedModel([(a) => ({ ...a, action: "ESCALATE", confidence: 0.99 })]);
    const { record, layers } = await decide(model, "internal-read");
    expect(layers[0]!.escalated).toBe("ESCALATE");
    expect(record).toMatchObject({ layer: "L2", action: "ALLOW" });
  });

  it("raises a model's ALLOW to the floor and records which rule applied", async () => {
    const model = new ScriptedModel([(a) => ({ ...a, action: "ALLOW", riskScore: 0.1 })]);
    const { record } = await decide(model, "external-admin-delete");
    expect(record).toMatchObject({
      action: "ESCALATE",
      riskScore: 0.1,
      floor: { rule: "MAR-2", atLeast: "ESCALATE", raisedFrom: "ALLOW" },
    });
  });

  it("asks again once after a refused answer and keeps both attempts", async () => {
    const model = new ScriptedModel(["not json"]);
    const { record, layers } = await decide(model, "internal-read");
    expect(layers[0]!.attempts.map((a) => a.outcome)).toEqual(["ANSWER_NOT_JSON", "ACCEPTED"]);
    expect(layers[0]!.attempts[0]!.answer).toBe("not json");
    expect(record).toMatchObject({ layer: "L1", action: "ALLOW" });
    expect(record.fallback).toBeUndefined();
  });

  it("falls back to the bundle's ESCALATE after two refusals, asks L2, and records L2's fallback too", async () => {
    const model = new ScriptedModel([
      (a) => ({ ...a, action: "DENY" }),
      (a) => ({ ...a, evidenceRefs: ["F99"] }),
      "{}",
      (a) => ({ ...a, riskScore: 2 }),
    ]);
    const { record, layers } = await decide(model, "internal-read");
    expect(layers.map((l) => l.attempts.map((a) => a.outcome))).toEqual([
      ["ANSWER_ACTION_UNKNOWN", "ANSWER_CITES_UNKNOWN_FACT"],
      ["ANSWER_SCHEMA_VIOLATION", "ANSWER_SCORE_OUT_OF_RANGE"],
    ]);
    expect(layers[0]).toMatchObject({ action: "ESCALATE", escalated: "ESCALATE", riskScore: null });
    expect(record).toMatchObject({
      layer: "L2",
      action: "ESCALATE",
      riskScore: null,
      confidence: 0,
      reasons: [],
      fallback: { code: "ANSWER_SCORE_OUT_OF_RANGE" },
    });
  });

  it("does not ask again after a model error: the adapter has retried what can be retried", async () => {
    const down = new PlatformError("DECISION_MODEL_UNAVAILABLE", "down", { details: { attempts: 3 } });
    const model = new ScriptedModel([down, new Error("boom")]);
    const { record, layers } = await decide(model, "internal-read");
    expect(model.calls).toHaveLength(2);
    expect(layers.map((l) => l.attempts.map((a) => a.outcome))).toEqual([
      ["DECISION_MODEL_UNAVAILABLE"],
      ["DECISION_MODEL_UNAVAILABLE"],
    ]);
    expect(layers[1]!.attempts[0]!.detail).toBe("the model failed unexpectedly");
    expect(record).toMatchObject({ action: "ESCALATE", fallback: { code: "DECISION_MODEL_UNAVAILABLE" } });
  });

  it("asks nothing once the caller aborted and records the fallback at L1", async () => {
    const model = new ScriptedModel();
    const { record, layers } = await decide(model, "internal-read", V20_BUNDLE, AbortSignal.abort());
    expect(model.calls).toHaveLength(0);
    expect(layers).toHaveLength(1);
    expect(record).toMatchObject({
      layer: "L1",
      action: "ESCALATE",
      fallback: { code: "DECISION_MODEL_TIMEOUT" },
    });
  });

  it("runs the build default v19 without floors, citing sections", async () => {
    const model = new ScriptedModel([(a) => ({ ...a, action: "ALLOW" })]);
    const { record } = await decide(model, "external-admin-delete", V19_BUNDLE);
    expect(record).toMatchObject({
      action: "ALLOW",
      selectionSource: "BUILD_DEFAULT",
      bundle: { version: "2026.07.30-v19", layout: "v19-sections" },
    });
    expect(record.floor).toBeUndefined();
    expect(record.reasons).toContainEqual({ code: "EXTERNAL_NETWORK", refs: ["LOCATION_CONTEXT"] });
  });

  it("rejects a bundle it cannot read before asking the model", async () => {
    const model = new ScriptedModel();
    const bundle = { ...V20_BUNDLE, budgets: V20_BUNDLE.budgets.filter((b) => b.family === "L1") };
    await expect(
      engineOf(model).decide(golden("internal-read"), { ...selectionOf(), bundle }, live()),
    ).rejects.toMatchObject({ code: "DECISION_BUNDLE_UNSUPPORTED", details: { element: "B8" } });
    expect(model.calls).toHaveLength(0);
  });
});
