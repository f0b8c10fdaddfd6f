import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../kernel/clock.js";
import { createPlatform } from "../kernel/platform.js";
import { OfflineAnalyst } from "./analyst/offline-analyst.js";
import { createDecisionsPlugin, decisionsPlugin } from "./decisions-plugin.js";
import { golden, ScriptedModel, selectionOf } from "./decisions.fixture.js";
import { DecisionEngine } from "./engine/decision-engine.js";
import { DecisionModel } from "./model/decision-model.js";
import { OpenAiCompatibleModel } from "./openai/openai-compatible-model.js";

const signal = () => new AbortController().signal;

describe("decisionsPlugin", () => {
  it("registers the offline analyst and the engine over it by default", async () => {
    const platform = createPlatform({ plugins: [decisionsPlugin] });
    await platform.start();
    expect(platform.resolve(DecisionModel)).toBeInstanceOf(OfflineAnalyst);
    const { record } = await platform
      .resolve(DecisionEngine)
      .decide(golden("external-admin-delete"), selectionOf(), signal());
    expect(record).toMatchObject({ action: "BLOCK", model: "builtin:offline-analyst/1" });
    await platform.stop();
  });

  it("registers the OpenAI-compatible model from the properties, the key from the named variable", () => {
    const platform = createPlatform({
      plugins: [createDecisionsPlugin({ env: { MY_KEY: "sk-secret" } })],
      properties: {
        "platform.security.decision.model.provider": "openai-compatible",
        "platform.security.decision.model.base-url": "http://localhost:11434/v1",
        "platform.security.decision.model.name": "llama3.1:8b",
        "platform.security.decision.model.api-key-env": "MY_KEY",
      },
    });
    const model = platform.resolve(DecisionModel);
    expect(model).toBeInstanceOf(OpenAiCompatibleModel);
    expect(model.name).toBe("openai-compatible:llama3.1:8b");
    expect(JSON.parse(JSON.stringify(model))).toMatchObject({
      baseUrl: "http://localhost:11434/v1",
      apiKey: "(set)",
    });
  });

  it("lets the host's model and the escalation threshold reach the engine", async () => {
    const model = new ScriptedModel();
    const platform = createPlatform({
      plugins: [decisionsPlugin],
      overrides: (o) => {
        o.override(DecisionModel, { useValue: model });
        o.override(Clock, { useValue: new ManualClock() });
      },
      properties: { "platform.security.decision.escalation-confidence": 0.1 },
    });
    const { record } = await platform
      .resolve(DecisionEngine)
      .decide(golden("every-fact-missing"), selectionOf(), signal());
    expect(record).toMatchObject({ layer: "L1", model: "test:scripted" });
    expect(model.calls).toHaveLength(1);
  });

  it.each([
    ["platform.security.decision.model.base-url", "ftp://example.com"],
    ["platform.security.decision.escalation-confidence", "1.5"],
    ["platform.security.decision.l1.timeout", "soon"],
    ["platform.security.decision.model.api-key-env", "MY-KEY"],
  ])("refuses %s = %s at start-up with PROPERTY_INVALID", (key, value) => {
    expect(() => createPlatform({ plugins: [decisionsPlugin], properties: { [key]: value } })).toThrow(
      expect.objectContaining({ code: "PROPERTY_INVALID" }),
    );
  });
});
