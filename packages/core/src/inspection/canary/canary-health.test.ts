import { describe, expect, it } from "vitest";
import { governanceHarness, KEY, V19, V20 } from "../../governance/governance.fixture.js";
import { PLATFORM_GLOBAL_SCOPE } from "../../governance/registry/release-registry.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { INSPECTOR_VERSION, type InspectionResult, type InspectionVerdict } from "../inspection-result.js";
import { InMemoryInspectionResultStore } from "../results/in-memory-inspection-result-store.js";
import { CANARY_HEALTH_ACTOR, CANARY_ROLLED_BACK_AUDIT, CanaryHealth } from "./canary-health.js";

const APPROVED_AT = Date.UTC(2026, 8, 20);

async function world() {
  const h = governanceHarness({ policySets: null });
  await h.seed({ [V19]: "ACTIVE" }, { approval: { by: "alice", at: APPROVED_AT - 1_000, rationale: "on" } });
  const head = await h.registry.head(PLATFORM_GLOBAL_SCOPE);
  const v20 = { ...head.releases[0]!, promptVersion: V20, status: "CANARY" as const, rollbackTargets: [V19] };
  await h.registry.replaceHead(PLATFORM_GLOBAL_SCOPE, head.revision, {
    releases: [...head.releases, { ...v20, approval: { by: "bob", at: APPROVED_AT, rationale: "canary" } }],
    openExecutions: [],
  });
  const results = new InMemoryInspectionResultStore();
  const health = new CanaryHealth({
    governance: h.governance,
    results,
    settings: { failRatePercent: 5, minInspected: 50 },
    audit: h.audit,
    logger: new RecordingLogger(),
  });
  let n = 0;
  /** Saves `count` results of `verdict` for packages captured as the v20 CANARY (of `approvedAt`). */
  const inspected = async (verdict: InspectionVerdict, count: number, approvedAt = APPROVED_AT) => {
    for (let i = 0; i < count; i++) {
      const r: InspectionResult = {
        packageId: `p${++n}`,
        capturedAt: APPROVED_AT + n,
        inspectedAt: APPROVED_AT + n,
        inspectorVersion: INSPECTOR_VERSION,
        dictionaryVersion: "v20@x",
        verdict,
        checks: [],
        findings: [],
        release: {
          registryScope: PLATFORM_GLOBAL_SCOPE,
          promptKey: KEY,
          promptVersion: V20,
          status: "CANARY",
          approvedAt,
        },
      };
      await results.save(r);
    }
  };
  return { h, health, inspected };
}

describe("canary health", () => {
  it("a FAIL rate above 5% over 50 decisive results rolls the canary back as system:inspector, recorded, no second approval", async () => {
    const { h, health, inspected } = await world();
    await inspected("PASS", 47);
    await inspected("FAIL", 3);
    const [tally] = await health.check();
    expect(tally).toMatchObject({ promptVersion: V20, decisive: 50, failed: 3, state: "ROLLED_BACK" });
    expect(await h.states()).toMatchObject({ [V19]: "ACTIVE", [V20]: "DEPRECATED" });
    const history = await h.registry.history({});
    const rollback = history.find((e) => e.kind === "ROLLBACK");
    expect(rollback?.actor).toBe(CANARY_HEALTH_ACTOR);
    const execution = await h.registry.execution(tally!.executionKey!);
    expect(execution).toMatchObject({
      status: "EXECUTED",
      emergency: false,
      operator: CANARY_HEALTH_ACTOR,
      toVersion: V19,
    });
    expect(execution!.reason).toContain("3 of 50");
    const audit = await h.audit.query({ limit: 100 });
    expect(
      audit.some((e) => e.type === "release.rollback.executed" && e.principal === CANARY_HEALTH_ACTOR),
    ).toBe(true);
    expect(audit.find((e) => e.type === CANARY_ROLLED_BACK_AUDIT)?.data).toMatchObject({
      failed: 3,
      decisive: 50,
    });
    expect(await health.check()).toEqual([]);
  });

  it("at the threshold (5%) the canary is healthy; under the minimum it waits", async () => {
    const { h, health, inspected } = await world();
    await inspected("FAIL", 2);
    await inspected("PASS", 30);
    expect((await health.check())[0]).toMatchObject({ decisive: 32, state: "WAITING" });
    await inspected("NOT_APPLICABLE", 8);
    await inspected("PASS", 10);
    expect((await health.check())[0]).toMatchObject({ decisive: 50, failed: 2, state: "HEALTHY" });
    await inspected("FAIL", 1);
    await inspected("PASS", 9);
    // 3 of 60 is 5%: not above the threshold.
    expect((await health.check())[0]).toMatchObject({ decisive: 60, failed: 3, state: "HEALTHY" });
    expect((await h.states())[V20]).toBe("CANARY");
  });

  it("INCOMPLETE and ERROR results pause the judgement: never a rollback, however many", async () => {
    const { h, health, inspected } = await world();
    await inspected("FAIL", 10);
    await inspected("INCOMPLETE", 200);
    await inspected("ERROR", 5);
    expect((await health.check())[0]).toMatchObject({
      decisive: 10,
      failed: 10,
      undecided: 205,
      state: "PAUSED",
    });
    expect((await h.states())[V20]).toBe("CANARY");
  });

  it("counts only the packages of this CANARY period (its approval), not an earlier canary of the version", async () => {
    const { h, health, inspected } = await world();
    await inspected("FAIL", 60, APPROVED_AT - 5_000);
    await inspected("PASS", 10);
    expect((await health.check())[0]).toMatchObject({ decisive: 10, failed: 0, state: "WAITING" });
    expect((await h.states())[V20]).toBe("CANARY");
  });

  it("a rollback the service refuses is recorded once and not tried again for the period", async () => {
    const { h, health, inspected } = await world();
    const head = await h.registry.head(PLATFORM_GLOBAL_SCOPE);
    // v19 retired: no rollback target the service accepts.
    const releases = head.releases.map((r) =>
      r.promptVersion === V19 ? { ...r, status: "RETIRED" as const } : r,
    );
    await h.registry.replaceHead(PLATFORM_GLOBAL_SCOPE, head.revision, { releases, openExecutions: [] });
    await inspected("FAIL", 50);
    expect((await health.check())[0]).toMatchObject({ state: "REFUSED" });
    expect((await health.check())[0]).toMatchObject({ state: "REFUSED" });
    const refusals = (await h.registry.history({})).filter((e) => e.actor === CANARY_HEALTH_ACTOR);
    expect(refusals.length).toBe(1);
    expect((await h.states())[V20]).toBe("CANARY");
  });
});
