import { describe, expect, it } from "vitest";
import { GOVERNANCE_AUDIT } from "../governance-audit.js";
import {
  ALICE,
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
import { InMemoryReleaseRegistry } from "../registry/in-memory-release-registry.js";
import { RELEASE_CACHE_TOPIC } from "../release-governance.js";

const V21 = "2026.11.20-v21";
const empty = { registered: [], heldBack: [], refreshed: [], deprecated: [] };

describe("start-up registration (rule 4)", () => {
  it("a fresh store: the build's runnable bundles with their descriptor's status (v19 ACTIVE, v20 AVAILABLE); records stay out", async () => {
    const h = governanceHarness();
    expect(await h.register()).toEqual({ ...empty, registered: [V19, V20] });
    expect(await h.states()).toEqual({ [V19]: "ACTIVE", [V20]: "AVAILABLE" });
    const v19 = await h.row(V19);
    expect(v19).toMatchObject({
      templateKey: "security-decision.sections",
      contractVersion: "CORTEX_PROMPT_CONTRACT_V2",
      artifactHash: manifest(V19).bundleHash,
      rollbackTargets: [V18],
      approval: { by: "system" },
      policySetHash: "a".repeat(64),
    });
    expect((await h.row(V20))?.policySetHash).toBeUndefined();
    const history = await h.governance.history();
    expect(history.map((e) => [e.kind, e.promptVersion, e.toStatus])).toEqual([
      ["REGISTERED", V20, "AVAILABLE"],
      ["REGISTERED", V19, "ACTIVE"],
    ]);
    expect(v19?.approval?.historyId).toBe(history[1]?.id);
    expect(h.audit.events().at(-1)).toMatchObject({ type: GOVERNANCE_AUDIT.registered, principal: "system" });
    expect((await h.counters.read([RELEASE_CACHE_TOPIC]))[RELEASE_CACHE_TOPIC]).toBe(1);
  });

  it("a second start against the same store writes nothing and keeps every operational field", async () => {
    const registry = new InMemoryReleaseRegistry();
    const first = governanceHarness({ registry });
    await first.register();
    await first.evidence(V20);
    for (const to of ["SHADOW", "CANARY", "ACTIVE"])
      await first.governance.transition(
        { promptKey: KEY, promptVersion: V20, targetReleaseStatus: to, rationale: "go" },
        ALICE,
      );
    await first.governance.transition(
      { promptKey: KEY, promptVersion: V19, targetReleaseStatus: "DEPRECATED", rationale: "v20 now" },
      ALICE,
    );
    const before = await registry.head("PLATFORM_GLOBAL");
    const second = governanceHarness({ registry });
    expect(await second.register()).toEqual(empty);
    expect(await registry.head("PLATFORM_GLOBAL")).toEqual(before);
    expect(await second.states()).toEqual({ [V19]: "DEPRECATED", [V20]: "ACTIVE" });
  });

  it("a build whose manifest hash changed refreshes code-owned content, never the status, approval or policy set", async () => {
    const registry = new InMemoryReleaseRegistry();
    const first = governanceHarness({ registry });
    await first.register();
    await first.evidence(V20);
    await first.governance.transition(
      { promptKey: KEY, promptVersion: V20, targetReleaseStatus: "SHADOW", rationale: "try" },
      ALICE,
    );
    const old = await first.row(V20);
    const changed = manifestLike(manifest(V20), {
      bundleHash: "d".repeat(64),
      contractVersion: "CORTEX_PROMPT_CONTRACT_V4",
    });
    const catalog = catalogOf([V17, V18, V19].map(manifest).concat(changed), [V19, V20]);
    const second = governanceHarness({ registry, catalog });
    expect(await second.register()).toEqual({ ...empty, refreshed: [V20] });
    const row = await second.row(V20);
    expect(row).toMatchObject({
      artifactHash: "d".repeat(64),
      contractVersion: "CORTEX_PROMPT_CONTRACT_V4",
      status: "SHADOW",
      approval: old?.approval,
    });
    expect((await second.governance.history())[0]).toMatchObject({
      kind: "REFRESHED",
      promptVersion: V20,
      fromStatus: "SHADOW",
      toStatus: "SHADOW",
    });
  });

  it("a new row declared ACTIVE starts AVAILABLE while the scope has an ACTIVE release this build runs", async () => {
    const registry = new InMemoryReleaseRegistry();
    await governanceHarness({ registry }).register();
    const v21 = manifestLike(manifest(V19), { promptVersion: V21, releaseStatus: "ACTIVE" });
    const h = governanceHarness({
      registry,
      catalog: catalogOf([manifest(V19), manifest(V20), v21], [V19, V20, V21]),
    });
    expect(await h.register()).toEqual({ ...empty, registered: [V21], heldBack: [V21] });
    expect(await h.states()).toEqual({ [V19]: "ACTIVE", [V20]: "AVAILABLE", [V21]: "AVAILABLE" });
  });

  it("an ACTIVE row of a bundle this build no longer runs does not hold the new default back; it is deprecated in the same write", async () => {
    const h = governanceHarness();
    await h.seed({ [V18]: "ACTIVE" });
    expect(await h.register()).toEqual({ ...empty, registered: [V19, V20], deprecated: [V18] });
    expect(await h.states()).toEqual({ [V18]: "DEPRECATED", [V19]: "ACTIVE", [V20]: "AVAILABLE" });
    // One write: v18 and v19 share a template, so the store refuses any head with both ACTIVE.
    expect((await h.row(V18))?.approval?.rationale).toContain("no longer runs");
  });

  it("creates the rows a later build adds and leaves the others alone", async () => {
    const registry = new InMemoryReleaseRegistry();
    await governanceHarness({ registry, catalog: catalogOf([manifest(V19)], [V19]) }).register();
    const h = governanceHarness({ registry });
    expect(await h.register()).toEqual({ ...empty, registered: [V20] });
    expect(await h.states()).toEqual({ [V19]: "ACTIVE", [V20]: "AVAILABLE" });
  });

  it("two instances starting together on one store agree on one set of rows", async () => {
    const registry = new InMemoryReleaseRegistry();
    const [a, b] = await Promise.all([
      governanceHarness({ registry }).register(),
      governanceHarness({ registry }).register(),
    ]);
    expect([a.registered, b.registered].sort()).toEqual([[], [V19, V20]]);
    expect((await registry.head("PLATFORM_GLOBAL")).releases).toHaveLength(2);
  });

  it("a host without policy sets records none", async () => {
    const h = governanceHarness({ policySets: null });
    await h.register();
    expect((await h.row(V19))?.policySetHash).toBeUndefined();
  });
});
