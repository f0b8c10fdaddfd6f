import { describe, expect, it } from "vitest";
import { OfflineAnalyst } from "../../decisions/analyst/offline-analyst.js";
import type { DecisionModel } from "../../decisions/model/decision-model.js";
import { build, hashOf, offlineRun, V19, V20 } from "../evidence/evidence.fixture.js";
import { runRecordInconsistencies } from "./evaluation-record-check.js";
import { evaluationRunSchema } from "./evaluation-run-record.js";
import { runBundleEvaluation } from "./run-bundle-evaluation.js";

const engine = { escalationConfidence: 0.7, timeouts: { L1: 5_000, L2: 20_000 } };

describe("runBundleEvaluation with the offline analyst", () => {
  it("runs every case of the manifest's families k times, grades them, and writes a consistent record", async () => {
    const started = performance.now();
    const run = await offlineRun(V20, 2);
    const perCase = (performance.now() - started) / run.cases.length;
    const { testSet } = build();
    const total = run.families.reduce((n, f) => n + testSet.families.get(f)!.cases.length, 0);
    expect(run.families).toEqual(["PROMPT_INJECTION", "TOOL_MISUSE", "MEMORY_POISONING", "MISSING_FACTS"]);
    expect(run.cases).toHaveLength(total * 2);
    expect(perCase).toBeLessThan(250);
    expect(evaluationRunSchema.safeParse(run).success).toBe(true);
    expect(run).toMatchObject({
      testSetHash: testSet.hash,
      promptVersion: V20,
      bundleHash: hashOf(V20),
      model: { provider: "builtin", name: "offline-analyst/1" },
      grader: { name: "scenario-grader", version: 1 },
      repetitions: 2,
    });
    expect(run.policySetHash).toBeUndefined();
    expect(run.cases.every((c) => c.tokens > 0)).toBe(true);
    // The analyst has no notion of injected text: PI-08 (a read that addresses the analyser) is allowed, and fails.
    expect(run.cases.find((c) => c.caseId === "PI-08")).toMatchObject({ action: "ALLOW", passed: false });
    expect(run.cases.find((c) => c.caseId === "PI-01")).toMatchObject({ passed: true });
    expect(
      runRecordInconsistencies(run, {
        testSet,
        promptKey: run.promptKey,
        promptVersion: V20,
        bundleHash: hashOf(V20),
        now: Date.now(),
      }),
    ).toEqual([]);
  });

  it("gives the event loop a turn after each decision (the intake replays runs on a serving instance)", async () => {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const run = await offlineRun(V19, 1);
    counting = false;
    expect(turns).toBeGreaterThanOrEqual(run.cases.length - 1);
  });

  it("runs the three default families for a manifest that declares none, or the families asked", async () => {
    expect((await offlineRun(V19, 1)).families).toEqual([
      "PROMPT_INJECTION",
      "TOOL_MISUSE",
      "MEMORY_POISONING",
    ]);
    const one = await offlineRun(V19, 1, ["MISSING_FACTS"]);
    expect(one.summary.families.map((f) => f.family)).toEqual(["MISSING_FACTS"]);
  });

  it("counts the tokens of every prompt sent and answer received, and records the hash of the policies", async () => {
    let calls = 0;
    const counting: DecisionModel = {
      name: "openai-compatible:gpt-4o-mini",
      async complete(system, user, budget, signal) {
        calls += 1;
        return new OfflineAnalyst().complete(system, user, budget, signal);
      },
    };
    const { catalog, testSet } = build();
    const policySetHash = "a".repeat(64);
    const run = await runBundleEvaluation({
      catalog,
      testSet,
      version: V20,
      model: counting,
      repetitions: 1,
      families: ["TOOL_MISUSE"],
      policySetHash,
      ...engine,
    });
    expect(calls).toBeGreaterThanOrEqual(10);
    expect(run.model).toEqual({ provider: "openai-compatible", name: "gpt-4o-mini" });
    expect(run.policySetHash).toBe(policySetHash);
  });

  it("refuses unknown families, a bad k and a version this build does not run", async () => {
    const { catalog, testSet } = build();
    const base = { catalog, testSet, model: new OfflineAnalyst(), ...engine };
    await expect(
      runBundleEvaluation({ ...base, version: V20, repetitions: 1, families: ["NOPE"] }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(
      runBundleEvaluation({
        ...base,
        version: V20,
        repetitions: 1,
        families: ["TOOL_MISUSE", "TOOL_MISUSE"],
      }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(runBundleEvaluation({ ...base, version: V20, repetitions: 21 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(
      runBundleEvaluation({ ...base, version: "2026.05.12-v18", repetitions: 1 }),
    ).rejects.toMatchObject({ code: "PROMPT_BUNDLE_NOT_IN_BUILD" });
  });
});
