// Test support: the concurrency suite of the release registry's services, for any ReleaseRegistry
// (the in-memory one here; the MongoDB adapter runs it too). Many administrators act on one scope
// at once; whatever interleaving the store allows, the scope never holds two ACTIVE releases of one
// family, never a half-applied rollback, and every applied change is recorded exactly once.
import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import { ALICE, BOB, CAROL, governanceHarness, KEY, V19, V20 } from "./governance.fixture.js";
import {
  PLATFORM_GLOBAL_SCOPE,
  type ReleaseRegistry,
  type ReleaseScopeHead,
} from "./registry/release-registry.js";
import type { GovernanceActor } from "./release-governance.js";

const FAMILY = ["2026.09.15-v20", "2026.10.01-v20b", "2026.10.02-v20c", "2026.10.03-v20d"];
const ADMINS: GovernanceActor[] = [ALICE, BOB, CAROL, { username: "dave" }];
/** The answers a racing call may get besides its result: lost every race (a client retries). */
const RACE_CODES = new Set(["RELEASE_REGISTRY_BUSY"]);

/** Settles every call; a rejection other than a lost race fails the test. */
async function settle<T>(calls: Promise<T>[]): Promise<{ done: T[]; busy: number }> {
  const results = await Promise.allSettled(calls);
  const done: T[] = [];
  let busy = 0;
  for (const r of results) {
    if (r.status === "fulfilled") done.push(r.value);
    else if (isPlatformError(r.reason) && RACE_CODES.has(r.reason.code)) busy += 1;
    else throw r.reason;
  }
  return { done, busy };
}

/** At most one ACTIVE release per prompt key and template. */
function expectOneActivePerFamily(head: ReleaseScopeHead): void {
  const families = head.releases
    .filter((r) => r.status === "ACTIVE")
    .map((r) => `${r.promptKey}/${r.templateKey}`);
  expect(new Set(families).size).toBe(families.length);
}

/**
 * Runs the concurrency suite against the registries `registry()` makes (a fresh, empty one per
 * test): 20 parallel transitions, 20 parallel rollbacks, both mixed, and two approvers racing.
 */
export function describeReleaseGovernanceConcurrency(
  name: string,
  registry: () => ReleaseRegistry | Promise<ReleaseRegistry>,
): void {
  const harness = async () => governanceHarness({ registry: await registry() });

  describe(`${name}: parallel changes of one scope`, () => {
    it("20 parallel transitions: one ACTIVE per family, each applied recorded once", async () => {
      const h = await harness();
      await h.seed({
        [FAMILY[0]!]: "CANARY",
        [FAMILY[1]!]: "CANARY",
        [FAMILY[2]!]: "CANARY",
        [FAMILY[3]!]: "ACTIVE",
        [V19]: "ACTIVE",
      });
      for (const v of FAMILY) await h.evidence(v);
      const targets = ["ACTIVE", "DEPRECATED", "CANARY", "ACTIVE", "ACTIVE"];
      const { done } = await settle(
        Array.from({ length: 20 }, (_, i) =>
          h.governance.transition(
            {
              promptKey: KEY,
              promptVersion: FAMILY[i % 4]!,
              targetReleaseStatus: targets[i % 5]!,
              rationale: `call ${i}`,
            },
            ADMINS[i % 4]!,
          ),
        ),
      );
      const after = await h.registry.head(PLATFORM_GLOBAL_SCOPE);
      expectOneActivePerFamily(after);
      const applied = done.filter((r) => r.outcome === "APPLIED");
      expect(applied.length).toBeGreaterThan(0);
      // Every applied call is recorded once, under its own entry; no call applied twice or silently.
      const history = await h.governance.history({ limit: 1_000 });
      const recorded = history.filter(
        (e) => e.kind === "TRANSITION_APPLIED" && e.rationale.startsWith("call "),
      );
      expect(recorded.map((e) => e.id).sort()).toEqual(applied.map((r) => r.historyId).sort());
    });

    it("20 parallel rollbacks of one source: exactly one runs, whole", async () => {
      const h = await harness();
      await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" }, { policySetHash: "b".repeat(64) });
      const { done } = await settle(
        Array.from({ length: 20 }, (_, i) =>
          h.governance.rollback(
            { promptKey: KEY, fromVersion: V20, toVersion: V19, reason: `r${i}`, emergency: i % 2 === 0 },
            ADMINS[i % 4]!,
          ),
        ),
      );
      const ran = done.filter((e) => e.status !== "REFUSED");
      expect(ran).toHaveLength(1);
      expect(
        done.filter((e) => e.status === "REFUSED").every((e) => e.conditions[0]?.outcome === "FAILED"),
      ).toBe(true);
      const after = await h.registry.head(PLATFORM_GLOBAL_SCOPE);
      const key = ran[0]!.executionKey;
      const moves = (await h.governance.history({ limit: 1_000 })).filter((e) => e.blockers.length === 0);
      expect(moves.map((e) => [e.executionKey, e.promptVersion, e.toStatus]).sort()).toEqual([
        [key, V19, "ACTIVE"],
        [key, V20, "DEPRECATED"],
      ]);
      expect(after.releases.map((r) => [r.promptVersion, r.status, r.rollbackState?.executionKey])).toEqual([
        [V20, "DEPRECATED", key],
        [V19, "ACTIVE", key],
      ]);
      expect(after.openExecutions.map((e) => e.executionKey)).toEqual(ran[0]!.emergency ? [key] : []);
    });

    it("rollbacks and transitions mixed: one ACTIVE per family, no half-applied rollback", async () => {
      const h = await harness();
      await h.seed(
        { [V20]: "ACTIVE", [V19]: "DEPRECATED", [FAMILY[1]!]: "CANARY" },
        { policySetHash: "b".repeat(64) },
      );
      await h.evidence(FAMILY[1]!);
      await h.evidence(V19);
      const calls = Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? h.governance
              .rollback({ promptKey: KEY, fromVersion: V20, toVersion: V19, reason: "x" }, ADMINS[i % 4]!)
              .then((e) => e.status === "EXECUTED")
          : h.governance
              .transition(
                {
                  promptKey: KEY,
                  promptVersion: i % 3 === 0 ? V19 : FAMILY[1]!,
                  targetReleaseStatus: i % 3 === 0 ? "CANARY" : "ACTIVE",
                  rationale: "y",
                },
                ADMINS[i % 4]!,
              )
              .then((r) => r.outcome === "APPLIED"),
      );
      const { done } = await settle(calls);
      const after = await h.registry.head(PLATFORM_GLOBAL_SCOPE);
      expectOneActivePerFamily(after);
      const history = await h.governance.history({ limit: 1_000 });
      const transitions = history.filter((e) => e.kind === "TRANSITION_APPLIED" && e.rationale === "y");
      const rollbacks = new Set(
        history.filter((e) => e.kind === "ROLLBACK" && e.blockers.length === 0).map((e) => e.executionKey),
      );
      expect(transitions.length + rollbacks.size).toBe(done.filter(Boolean).length);
      const key = after.releases.find((r) => r.promptVersion === V20)?.rollbackState?.executionKey;
      if (key !== undefined)
        expect(after.releases.find((r) => r.promptVersion === V19)?.rollbackState?.executionKey).toBe(key);
    });

    it("two administrators answering one emergency stop: one wins, the other is told it is not open", async () => {
      const h = await harness();
      await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" }, { policySetHash: "b".repeat(64) });
      const stop = await h.governance.rollback(
        { promptKey: KEY, fromVersion: V20, toVersion: V19, reason: "stop", emergency: true },
        ALICE,
      );
      const results = await Promise.allSettled([
        h.governance.approve(stop.executionKey, { action: "RATIFY" }, BOB),
        h.governance.approve(stop.executionKey, { action: "REVERT" }, CAROL),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ code: "ROLLBACK_EXECUTION_NOT_OPEN" });
      expect((await h.registry.head(PLATFORM_GLOBAL_SCOPE)).openExecutions).toEqual([]);
    });
  });
}
