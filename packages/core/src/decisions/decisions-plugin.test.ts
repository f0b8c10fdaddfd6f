import { describe, expect, it } from "vitest";
import { authzPlugin } from "../authz/authz-plugin.js";
import { InMemoryUserRepository } from "../identity/users/in-memory-user-repository.js";
import { UserRepository } from "../identity/users/user-repository.js";
import { EventBus } from "../kernel/event-bus.js";
import { IdGenerator } from "../kernel/id-generator.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../mfa/adaptive/risk-thresholds.js";
import { EngineDecisionMaker } from "./engine/engine-decision-maker.js";
import { SealedEvidenceStore } from "./evidence/sealed-evidence-store.js";
import { DecisionMaker } from "./pipeline/decision-maker.js";
import { DecisionPipeline } from "./pipeline/decision-pipeline.js";
import { Clock, ManualClock } from "../kernel/clock.js";
import { createPlatform } from "../kernel/platform.js";
import { OfflineAnalyst } from "./analyst/offline-analyst.js";
import { createDecisionsPlugin, decisionsPlugin } from "./decisions-plugin.js";
import { golden, ScriptedModel, selectionOf } from "./decisions.fixture.js";
import { DecisionEngine } from "./engine/decision-engine.js";
import { DecisionModel } from "./model/decision-model.js";
import { OpenAiCompatibleModel } from "./openai/openai-compatible-model.js";

const signal = () => new AbortController().signal;

// authzPlugin's adaptive-MFA listener reads these; mfaPlugin would bring them.
const adaptiveProperties: PlatformPlugin = {
  id: "adaptive-properties",
  properties: ADAPTIVE_PROPERTIES,
  register() {},
};

describe("decisionsPlugin", () => {
  it("registers the offline analyst and the engine over it by default", async () => {
    // Without identity and zero trust the included pipeline can only start switched off.
    const platform = createPlatform({
      plugins: [decisionsPlugin],
      properties: { "platform.security.decision.enabled": false },
    });
    await platform.start();
    expect(platform.resolve(DecisionModel)).toBeInstanceOf(OfflineAnalyst);
    const { record } = await platform
      .resolve(DecisionEngine)
      .decide(golden("external-admin-delete"), selectionOf(), signal());
    expect(record).toMatchObject({ action: "BLOCK", model: "builtin:offline-analyst/1" });
    await platform.stop();
  });

  it("registers the DecisionMaker over the engine and includes the pipeline, which decides with it", async () => {
    const platform = createPlatform({
      env: {},
      plugins: [adaptiveProperties, decisionsPlugin, authzPlugin],
      overrides: (o) =>
        o.override(UserRepository, {
          useFactory: (c) =>
            new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
        }),
    });
    await platform.start();
    const maker = platform.resolve(DecisionMaker);
    expect(maker).toBeInstanceOf(EngineDecisionMaker);
    expect(maker.model).toEqual({ id: "builtin:offline-analyst/1", external: false });
    const alice = await platform.resolve(UserRepository).create({ username: "alice" });
    // A wrong code, as the MFA runtime reports it.
    await platform.resolve(EventBus).publish("mfa.ErrorEvent", {
      type: "ErrorEvent",
      errorType: "SECURITY",
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      userId: alice.id,
    });
    await platform.resolve(DecisionPipeline).idle();
    const [pkg] = await platform.resolve(SealedEvidenceStore).recentRecords(1);
    expect(pkg?.metadata).toMatchObject({ eventKind: "MFA_FAILURE", model: maker.model, layer: "L2" });
    await platform.stop();
  });

  it("names an external model for the OpenAI-compatible adapter, so the pipeline redacts", () => {
    const platform = createPlatform({
      plugins: [decisionsPlugin],
      properties: {
        "platform.security.decision.enabled": false,
        "platform.security.decision.model.provider": "openai-compatible",
        "platform.security.decision.model.name": "gpt-4o-mini",
      },
    });
    expect(platform.resolve(DecisionMaker).model).toEqual({
      id: "openai-compatible:gpt-4o-mini",
      external: true,
    });
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
