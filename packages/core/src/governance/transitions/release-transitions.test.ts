import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { GOVERNANCE_AUDIT } from "../governance-audit.js";
import { ALICE, ALL_KINDS, governanceHarness, KEY, V19, V20 } from "../governance.fixture.js";
import { ALLOWED_RELEASE_TRANSITIONS, RELEASE_STATES, type ReleaseState } from "../registry/release-state.js";
import { RELEASE_CACHE_TOPIC } from "../release-governance.js";

const V20B = "2026.10.01-v20b";
const ask = (
  version: string,
  target: string,
  extra: { registryScope?: string; rationale?: string } = {},
) => ({
  promptKey: KEY,
  promptVersion: version,
  targetReleaseStatus: target,
  rationale: extra.rationale ?? "because",
  registryScope: extra.registryScope,
});

describe("the transition matrix (every pair, with all evidence and another ACTIVE release)", () => {
  const pairs = RELEASE_STATES.flatMap((from) => RELEASE_STATES.map((to) => [from, to] as const));
  it.each(pairs)("%s → %s", async (from, to) => {
    const h = governanceHarness();
    await h.seed({ [V20]: from, [V19]: "ACTIVE" });
    await h.evidence(V20);
    const receipt = await h.governance.transition(ask(V20, to), ALICE);
    if (ALLOWED_RELEASE_TRANSITIONS[from].includes(to)) {
      expect(receipt).toMatchObject({ outcome: "APPLIED", fromStatus: from, targetStatus: to, blockers: [] });
      expect((await h.row(V20))?.status).toBe(to);
    } else {
      expect(receipt.outcome).toBe("BLOCKED");
      expect(receipt.blockers.map((b) => b.code)).toEqual(["ILLEGAL_STATE_TRANSITION"]);
      expect((await h.row(V20))?.status).toBe(from);
    }
  });
});

describe("blockers by target", () => {
  const cases: [ReleaseState, ReleaseState, string[]][] = [
    ["AVAILABLE", "SHADOW", ["CHANGE_LEDGER_MISSING"]],
    [
      "SHADOW",
      "CANARY",
      [
        "CHANGE_LEDGER_MISSING",
        "EVALUATION_NOT_FOR_BUNDLE_HASH",
        "MODEL_COMPATIBILITY_MISSING",
        "BUDGET_PROFILE_MISSING",
      ],
    ],
    [
      "CANARY",
      "ACTIVE",
      [
        "CHANGE_LEDGER_MISSING",
        "EVALUATION_NOT_FOR_BUNDLE_HASH",
        "MODEL_COMPATIBILITY_MISSING",
        "BUDGET_PROFILE_MISSING",
        "PROMPT_INJECTION_GATE_FAILED",
        "NON_FUNCTIONAL_GATE_FAILED",
        "EMPIRICAL_EVAL_MISSING",
        "TEVV_GATE_NOT_READY",
        "TOKEN_COUNTING_POLICY_MISSING",
        "CACHE_POLICY_MISSING",
        "COMPACTION_POLICY_MISSING",
      ],
    ],
    ["CANARY", "DEPRECATED", []],
    ["SHADOW", "RETIRED", []],
  ];
  it.each(cases)(
    "%s → %s without evidence: exactly the spec's blockers; with it: none",
    async (from, to, codes) => {
      const h = governanceHarness();
      await h.seed({ [V20]: from, [V19]: "ACTIVE" });
      const blocked = await h.governance.transition(ask(V20, to), ALICE, { dryRun: true });
      expect(blocked.blockers.map((b) => b.code).sort()).toEqual([...codes].sort());
      await h.evidence(V20);
      const applied = await h.governance.transition(ask(V20, to), ALICE);
      expect(applied).toMatchObject({ outcome: "APPLIED", blockers: [] });
    },
  );

  it("evidence bound to another bundle hash satisfies nothing", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "SHADOW", [V19]: "ACTIVE" });
    await h.evidence(V20, ALL_KINDS, "f".repeat(64));
    const r = await h.governance.transition(ask(V20, "CANARY"), ALICE);
    expect(r.blockers.map((b) => b.code)).toContain("EVALUATION_NOT_FOR_BUNDLE_HASH");
    expect(r.outcome).toBe("BLOCKED");
  });

  it.each(["CANARY", "ACTIVE", "DEPRECATED"] as const)(
    "ROLLBACK_TARGET_MISSING to %s when the manifest declares no rollback target",
    async (to) => {
      const h = governanceHarness();
      await h.seed({ [V20]: "CANARY" }, { rollbackTargets: [] });
      await h.seed(
        { [V20]: to === "CANARY" ? "ACTIVE" : "CANARY", [V19]: "ACTIVE" },
        { rollbackTargets: [] },
      );
      await h.evidence(V20);
      const r = await h.governance.transition(ask(V20, to), ALICE);
      expect(r.blockers.map((b) => b.code)).toEqual(["ROLLBACK_TARGET_MISSING"]);
    },
  );

  it("a declared rollback target need not be in the build (v19 declares only the v18 record)", async () => {
    const h = governanceHarness();
    await h.seed({ [V19]: "ACTIVE", [V20]: "ACTIVE" });
    const r = await h.governance.transition(ask(V19, "DEPRECATED"), ALICE);
    expect(r).toMatchObject({ outcome: "APPLIED", blockers: [] });
  });
});

describe("rules 1 and 2", () => {
  it("rule 1: ACTIVE deprecates the other ACTIVE release of the same key and template, not another template's", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "CANARY", [V20B]: "ACTIVE", [V19]: "ACTIVE" });
    await h.evidence(V20);
    const r = await h.governance.transition(ask(V20, "ACTIVE"), ALICE);
    expect(r.deprecated).toEqual([V20B]);
    expect(await h.states()).toEqual({ [V20]: "ACTIVE", [V20B]: "DEPRECATED", [V19]: "ACTIVE" });
    const history = await h.governance.history();
    expect(history.map((e) => [e.promptVersion, e.fromStatus, e.toStatus])).toEqual(
      expect.arrayContaining([
        [V20, "CANARY", "ACTIVE"],
        [V20B, "ACTIVE", "DEPRECATED"],
      ]),
    );
    expect((await h.row(V20B))?.approval?.rationale).toContain("rule 1");
  });

  it("rule 2: DEPRECATED only while another release of the scope is ACTIVE", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE", [V19]: "AVAILABLE" });
    const r = await h.governance.transition(ask(V20, "DEPRECATED"), ALICE);
    expect(r.blockers.map((b) => b.code)).toEqual(["NO_OTHER_ACTIVE_RELEASE"]);
    expect((await h.row(V20))?.status).toBe("ACTIVE");
  });
});

describe("what a transition records", () => {
  it("an applied one: status, approval naming its history entry, policy set, audit, invalidation", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "SHADOW", [V19]: "ACTIVE" });
    await h.evidence(V20);
    const r = await h.governance.transition(ask(V20, "CANARY", { rationale: "ship" }), ALICE);
    const row = await h.row(V20);
    expect(row).toMatchObject({
      status: "CANARY",
      approval: { by: "alice", rationale: "ship", historyId: r.historyId },
      policySetHash: "a".repeat(64),
    });
    const [entry] = await h.governance.history({ promptVersion: V20 });
    expect(entry).toMatchObject({
      id: r.historyId,
      kind: "TRANSITION_APPLIED",
      fromStatus: "SHADOW",
      toStatus: "CANARY",
      actor: "alice",
    });
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.transitionApplied,
      principal: "alice",
      correlationId: "corr-1",
      remoteAddress: "10.0.0.1",
    });
    expect((await h.counters.read([RELEASE_CACHE_TOPIC]))[RELEASE_CACHE_TOPIC]).toBe(1);
    expect(h.events.map((e) => e.type)).toContain("prompt-releases.changed");
  });

  it("a blocked one changes nothing and is recorded with its blockers and the state asked for", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "AVAILABLE" });
    const before = await h.registry.head("PLATFORM_GLOBAL");
    const r = await h.governance.transition(ask(V20, "SHADOW"), ALICE);
    expect(r.outcome).toBe("BLOCKED");
    expect((await h.registry.head("PLATFORM_GLOBAL")).revision).toBe(before.revision);
    const [entry] = await h.governance.history();
    expect(entry).toMatchObject({
      id: r.historyId,
      kind: "TRANSITION_BLOCKED",
      fromStatus: "AVAILABLE",
      toStatus: "AVAILABLE",
      requestedStatus: "SHADOW",
      blockers: ["CHANGE_LEDGER_MISSING"],
    });
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.transitionBlocked,
      outcome: "failure",
    });
    expect((await h.counters.read([RELEASE_CACHE_TOPIC]))[RELEASE_CACHE_TOPIC]).toBe(0);
  });

  it("a dry run answers what would happen and records nothing", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "CANARY", [V20B]: "ACTIVE" });
    await h.evidence(V20);
    const r = await h.governance.transition(ask(V20, "PRODUCTION"), ALICE, { dryRun: true });
    expect(r).toMatchObject({
      outcome: "APPLIED",
      dryRun: true,
      targetStatus: "ACTIVE",
      deprecated: [V20B],
    });
    expect(r.historyId).toBeUndefined();
    expect(await h.states()).toEqual({ [V20]: "CANARY", [V20B]: "ACTIVE" });
    expect(await h.governance.history()).toEqual([]);
    expect(h.audit.events()).toEqual([]);
  });

  it("older names are read; every answer names the canonical state", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "AVAILABLE" });
    await h.evidence(V20);
    const r = await h.governance.transition(ask(V20, "EVAL_ONLY"), ALICE);
    expect(r).toMatchObject({ outcome: "APPLIED", fromStatus: "AVAILABLE", targetStatus: "SHADOW" });
  });

  it("a failing invalidation is logged and never undoes the change", async () => {
    const h = governanceHarness();
    h.counters.bump = async () => {
      throw new Error("counters down");
    };
    await h.seed({ [V20]: "AVAILABLE" });
    const r = await h.governance.transition(ask(V20, "RETIRED"), ALICE);
    expect(r.outcome).toBe("APPLIED");
    expect((await h.row(V20))?.status).toBe("RETIRED");
    expect(h.logger.lines.some((l) => l.level === "error" && l.message.includes("invalidation"))).toBe(true);
  });
});

describe("bad input", () => {
  const h = governanceHarness();
  it.each([
    ["an unknown target", ask(V20, "LIVE"), "VALIDATION_FAILED"],
    ["a prototype key as target", ask(V20, "__proto__"), "VALIDATION_FAILED"],
    ["a lower-case target", ask(V20, "active"), "VALIDATION_FAILED"],
    [
      "a missing target",
      { ...ask(V20, "ACTIVE"), targetReleaseStatus: undefined as unknown as string },
      "VALIDATION_FAILED",
    ],
    ["a blank version", ask(" ", "SHADOW"), "VALIDATION_FAILED"],
    ["an oversized version", ask("v".repeat(201), "SHADOW"), "VALIDATION_FAILED"],
    ["an oversized rationale", ask(V20, "SHADOW", { rationale: "x".repeat(2_001) }), "VALIDATION_FAILED"],
    [
      "a non-string key",
      { ...ask(V20, "SHADOW"), promptKey: { $ne: 1 } as unknown as string },
      "VALIDATION_FAILED",
    ],
    ["an oversized scope", ask(V20, "SHADOW", { registryScope: "s".repeat(201) }), "VALIDATION_FAILED"],
    [
      "a non-string scope",
      ask(V20, "SHADOW", { registryScope: 7 as unknown as string }),
      "VALIDATION_FAILED",
    ],
    ["an unregistered version", ask("2026.12.31-v99", "SHADOW"), "RELEASE_NOT_FOUND"],
    ["another scope's version", ask(V20, "SHADOW", { registryScope: "tenant-a" }), "RELEASE_NOT_FOUND"],
  ])("%s → %s", async (_name, request, code) => {
    await h.seed({ [V20]: "AVAILABLE" });
    expect(await codeOf(h.governance.transition(request, ALICE))).toBe(code);
  });

  it("a blank scope is PLATFORM_GLOBAL", async () => {
    await h.seed({ [V20]: "AVAILABLE" });
    const r = await h.governance.transition(ask(V20, "RETIRED", { registryScope: "  " }), ALICE);
    expect(r).toMatchObject({ registryScope: "PLATFORM_GLOBAL", outcome: "APPLIED" });
  });
});
