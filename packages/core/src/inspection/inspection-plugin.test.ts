import { describe, expect, it } from "vitest";
import { InspectionOutcomes } from "../decisions/evidence/inspection-outcomes.js";
import { sealedEvidencePlugin } from "../decisions/evidence/sealed-evidence-plugin.js";
import { createPlatform } from "../kernel/platform.js";
import { createPromptInspectionPlugin } from "./inspection-plugin.js";
import type { InspectionResult } from "./inspection-result.js";
import { PromptFactSourceVerifier } from "./prompt-fact-source-verifier.js";
import { InspectionResultStore } from "./results/inspection-result-store.js";
import { InspectionRoundToken } from "./service/inspection-round.js";

const platformWith = (properties: Record<string, unknown>, sampleFactSource = false) =>
  createPlatform({
    plugins: [sealedEvidencePlugin, createPromptInspectionPlugin({ sampleFactSource })],
    properties,
  });

const result = (packageId: string, verdict: InspectionResult["verdict"]): InspectionResult => ({
  packageId,
  capturedAt: 1,
  inspectedAt: 2,
  inspectorVersion: "prompt-inspector/1",
  dictionaryVersion: "v20@x",
  verdict,
  checks: [],
  findings: [],
});

describe("createPromptInspectionPlugin", () => {
  it("registers the result store and the InspectionOutcomes retention reads (NOTHING_WRONG is CLEAN)", async () => {
    const platform = platformWith({});
    const store = platform.resolve(InspectionResultStore);
    await store.save(result("clean", "PASS"));
    await store.save(result("failed", "FAIL"));
    const outcomes = platform.resolve(InspectionOutcomes);
    expect(await outcomes.latestInspectionOutcome("clean")).toBe("CLEAN");
    expect(await outcomes.latestInspectionOutcome("failed")).toBe("FINDINGS");
    expect(await outcomes.latestInspectionOutcome("never")).toBeUndefined();
    expect(platform.container.isRegistered(InspectionRoundToken, true)).toBe(true);
    expect(platform.container.isRegistered(PromptFactSourceVerifier, true)).toBe(false);
  });

  it("is absent in an Enterprise installation and when switched off", () => {
    for (const properties of [
      { "platform.enterprise.enabled": true },
      { "platform.prompt-inspection.enabled": false },
    ]) {
      const platform = platformWith(properties);
      expect(platform.container.isRegistered(InspectionResultStore, true)).toBe(false);
      expect(platform.container.isRegistered(InspectionOutcomes, true)).toBe(false);
      expect(platform.container.isRegistered(InspectionRoundToken, true)).toBe(false);
    }
  });

  it("refuses a batch size of 0 or a sample outside 1..100 at start-up", () => {
    expect(() => platformWith({ "platform.prompt-inspection.batch-size": 0 })).toThrow(/batch-size/);
    expect(() => platformWith({ "platform.prompt-inspection.sample-percent": 0 })).toThrow(/sample-percent/);
    expect(() => platformWith({ "platform.prompt-inspection.interval": "soon" })).toThrow(/interval/);
  });
});
