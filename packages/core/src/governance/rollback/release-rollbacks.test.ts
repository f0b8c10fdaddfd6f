import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { GOVERNANCE_AUDIT } from "../governance-audit.js";
import {
  ALICE,
  buildCatalog,
  catalogOf,
  governanceHarness,
  KEY,
  manifest,
  manifestLike,
  V17,
  V18,
  V19,
  V20,
} from "../governance.fixture.js";
import type { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { RELEASE_CACHE_TOPIC, ROLLBACK_CONDITION_CODES } from "../release-governance.js";

const HASH = "b".repeat(64);
const back = (from = V20, to = V19, extra: { emergency?: boolean; registryScope?: string } = {}) => ({
  promptKey: KEY,
  fromVersion: from,
  toVersion: to,
  reason: "bad answers",
  ...extra,
});
/** The build's catalog with one manifest changed. */
function catalogWith(
  version: string,
  changes: Parameters<typeof manifestLike>[1],
  runs = [V19, V20],
): BundleCatalog {
  return catalogOf(
    [V17, V18, V19, V20].map((v) => (v === version ? manifestLike(manifest(v), changes) : manifest(v))),
    runs,
  );
}
const failedOf = (e: { conditions: readonly { code: string; outcome: string }[] }) =>
  e.conditions.filter((c) => c.outcome === "FAILED").map((c) => c.code);

describe("a rollback", () => {
  it("switches the scope: source DEPRECATED, target ACTIVE, every condition PASSED in order, recorded and announced", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" }, { policySetHash: HASH });
    const e = await h.governance.rollback(back(), ALICE);
    expect(e).toMatchObject({
      status: "EXECUTED",
      emergency: false,
      operator: "alice",
      fromVersion: V20,
      toVersion: V19,
    });
    expect(e.executionKey).toMatch(/^RBX-.+/);
    expect(e.conditions.map((c) => [c.code, c.outcome])).toEqual(
      ROLLBACK_CONDITION_CODES.map((c) => [c, "PASSED"]),
    );
    expect(await h.states()).toEqual({ [V20]: "DEPRECATED", [V19]: "ACTIVE" });
    expect((await h.row(V20))?.rollbackState).toMatchObject({
      executionKey: e.executionKey,
      role: "SOURCE",
      status: "EXECUTED",
    });
    expect((await h.row(V19))?.rollbackState).toMatchObject({ executionKey: e.executionKey, role: "TARGET" });
    expect(await h.registry.execution(e.executionKey)).toEqual(e);
    const history = await h.governance.history();
    expect(history.every((x) => x.kind === "ROLLBACK" && x.executionKey === e.executionKey)).toBe(true);
    expect(history).toHaveLength(2);
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.rollbackExecuted,
      principal: "alice",
    });
    expect((await h.counters.read([RELEASE_CACHE_TOPIC]))[RELEASE_CACHE_TOPIC]).toBe(1);
  });

  it("the demo's path: registered build, v20 through the gate to ACTIVE, rolled back to v19; v19 to v18 refused", async () => {
    const h = governanceHarness();
    await h.register();
    await h.evidence(V20);
    for (const to of ["SHADOW", "CANARY", "ACTIVE"])
      expect(
        (
          await h.governance.transition(
            { promptKey: KEY, promptVersion: V20, targetReleaseStatus: to, rationale: "go" },
            ALICE,
          )
        ).outcome,
      ).toBe("APPLIED");
    expect((await h.governance.rollback(back(), ALICE)).status).toBe("EXECUTED");
    expect(await h.states()).toEqual({ [V19]: "ACTIVE", [V20]: "DEPRECATED" });
    const refused = await h.governance.rollback(back(V19, V18), ALICE);
    expect(refused.status).toBe("REFUSED");
    expect(failedOf(refused)).toContain("TARGET_NOT_IN_BUILD");
  });
});

describe("each rollback condition failing alone refuses it and changes nothing", () => {
  const cases: [
    string,
    {
      states: Record<string, "ACTIVE" | "DEPRECATED" | "SHADOW" | "RETIRED">;
      catalog?: BundleCatalog;
      hash?: boolean;
    },
  ][] = [
    ["SOURCE_NOT_EXECUTING", { states: { [V20]: "SHADOW", [V19]: "DEPRECATED" } }],
    [
      "TARGET_NOT_IN_BUILD",
      {
        states: { [V20]: "ACTIVE", [V19]: "DEPRECATED" },
        catalog: catalogOf([V19, V20].map(manifest), [V20]),
      },
    ],
    [
      "TARGET_NOT_DECLARED",
      {
        states: { [V20]: "ACTIVE", [V19]: "DEPRECATED" },
        catalog: catalogWith(V20, { rollbackTargets: [V18] }),
      },
    ],
    [
      "VOCABULARY_INCOMPATIBLE",
      {
        states: { [V20]: "ACTIVE", [V19]: "DEPRECATED" },
        catalog: catalogWith(V19, { compatibleVocabularyVersions: ["vocab-2"] }),
      },
    ],
    ["TARGET_NOT_REGISTERED", { states: { [V20]: "ACTIVE", [V19]: "RETIRED" } }],
    ["POLICY_SET_MISSING", { states: { [V20]: "ACTIVE", [V19]: "DEPRECATED" }, hash: false }],
  ];
  it.each(cases)("%s", async (code, c) => {
    const h = governanceHarness({ catalog: c.catalog ?? buildCatalog() });
    await h.seed(c.states, c.hash === false ? {} : { policySetHash: HASH });
    const before = await h.registry.head("PLATFORM_GLOBAL");
    const e = await h.governance.rollback(back(), ALICE);
    expect(e.status).toBe("REFUSED");
    expect(failedOf(e)).toEqual([code]);
    expect(await h.registry.head("PLATFORM_GLOBAL")).toEqual(before);
    expect(await h.registry.execution(e.executionKey)).toMatchObject({ status: "REFUSED" });
    const [entry] = await h.governance.history();
    expect(entry).toMatchObject({
      kind: "ROLLBACK",
      blockers: [code],
      executionKey: e.executionKey,
      promptVersion: V20,
    });
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.rollbackRefused,
      outcome: "failure",
    });
    expect((await h.counters.read([RELEASE_CACHE_TOPIC]))[RELEASE_CACHE_TOPIC]).toBe(0);
  });

  it("a target without a row fails TARGET_NOT_REGISTERED (and has no policy set either)", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE" }, { policySetHash: HASH });
    expect(failedOf(await h.governance.rollback(back(), ALICE))).toEqual([
      "TARGET_NOT_REGISTERED",
      "POLICY_SET_MISSING",
    ]);
  });

  it("POLICY_SET_MISSING passes on the target's latest evaluation run for its hash recording one", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" });
    await h.evidence(V19, ["EVALUATION_RUN"], undefined, { policySetHash: HASH });
    expect((await h.governance.rollback(back(), ALICE)).status).toBe("EXECUTED");
    expect((await h.row(V19))?.policySetHash).toBe("a".repeat(64));
  });

  it("an evaluation run for another bundle hash does not count", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" });
    await h.evidence(V19, ["EVALUATION_RUN"], "c".repeat(64), { policySetHash: HASH });
    expect(failedOf(await h.governance.rollback(back(), ALICE))).toEqual(["POLICY_SET_MISSING"]);
  });

  it("POLICY_SET_MISSING is NOT_APPLICABLE on a host without policy sets", async () => {
    const h = governanceHarness({ policySets: null });
    await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" });
    const e = await h.governance.rollback(back(), ALICE);
    expect(e.status).toBe("EXECUTED");
    expect(e.conditions.at(-1)).toMatchObject({ code: "POLICY_SET_MISSING", outcome: "NOT_APPLICABLE" });
    expect((await h.row(V19))?.policySetHash).toBeUndefined();
  });

  it("a rollback to itself is not declared", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "ACTIVE" }, { policySetHash: HASH });
    expect(failedOf(await h.governance.rollback(back(V20, V20), ALICE))).toEqual(["TARGET_NOT_DECLARED"]);
  });
});

describe("rollback input", () => {
  const h = governanceHarness();
  it.each([
    ["a blank source", { ...back(), fromVersion: "" }],
    ["an oversized target", { ...back(), toVersion: "v".repeat(500) }],
    ["an oversized reason", { ...back(), reason: "r".repeat(2_001) }],
    ["a non-string key", { ...back(), promptKey: ["x"] as unknown as string }],
  ])("%s → VALIDATION_FAILED", async (_n, request) => {
    expect(await codeOf(h.governance.rollback(request, ALICE))).toBe("VALIDATION_FAILED");
  });
  it("an unknown scope refuses (nothing executes there)", async () => {
    const e = await h.governance.rollback(back(V20, V19, { registryScope: "tenant-x" }), ALICE);
    expect(e).toMatchObject({ status: "REFUSED", registryScope: "tenant-x" });
    expect(failedOf(e)).toContain("SOURCE_NOT_EXECUTING");
  });
});
