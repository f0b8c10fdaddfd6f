import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import {
  FIXTURE_SCOPE as SCOPE,
  headOf,
  historyEntry,
  releaseRow as row,
  rollbackExecution,
} from "./release-registry.contract-rows.js";
import type { ReleaseRegistry, ReleaseScopeHead } from "./release-registry.js";

/** How many writers each race runs (as many administrators, or instances, at one moment). */
const RACERS = 10;

/**
 * Runs `change` on an answer the store gave. A store may answer frozen copies (the change throws) or
 * its own copies (the change lands on the copy): either way nothing stored may change.
 */
function tryToChange(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/**
 * The behaviour every ReleaseRegistry adapter must show. `factory` returns a fresh, empty registry.
 * Races are run as concurrent calls: of any number of replaceHead calls with one expected revision,
 * exactly one may win, whatever instance (or client) each comes from.
 */
export function describeReleaseRegistryContract(
  name: string,
  factory: () => Promise<ReleaseRegistry> | ReleaseRegistry,
): void {
  describe(`ReleaseRegistry contract: ${name}`, () => {
    describeHeads(factory);
    describeHeadChecks(factory);
    describeHistory(factory);
    describeExecutions(factory);
  });
}

function describeHeads(factory: () => Promise<ReleaseRegistry> | ReleaseRegistry): void {
  describe("heads", () => {
    it("answers revision 0 with nothing in it for a scope never written, and lists no head", async () => {
      const registry = await factory();
      expect(await registry.head("tenant-a")).toEqual({
        registryScope: "tenant-a",
        revision: 0,
        releases: [],
        openExecutions: [],
      });
      expect(await registry.heads()).toEqual([]);
    });

    it("creates a scope from revision 0 and answers the stored head, revision 1", async () => {
      const registry = await factory();
      const next = headOf(
        [row("v19", "ACTIVE", { canaryTenants: ["t-1"], policySetHash: "ab12" }), row("v20", "AVAILABLE")],
        [rollbackExecution("RBX-0001")],
      );
      const written = await registry.replaceHead(SCOPE, 0, next);
      expect(written).toEqual({ registryScope: SCOPE, revision: 1, ...next });
      expect(await registry.head(SCOPE)).toEqual(written);
      expect(await registry.heads()).toEqual([written]);
    });

    it("advances from the current revision only: a stale, early or late revision writes nothing", async () => {
      const registry = await factory();
      await registry.replaceHead(SCOPE, 0, headOf([row("v19", "ACTIVE")]));
      const second = await registry.replaceHead(
        SCOPE,
        1,
        headOf([row("v19", "ACTIVE"), row("v20", "SHADOW")]),
      );
      expect(second?.revision).toBe(2);
      for (const stale of [0, 1, 3, 7]) {
        const lost = await registry.replaceHead(SCOPE, stale, headOf([row("v21", "AVAILABLE")]));
        expect(lost, `expected revision ${stale}`).toBeUndefined();
      }
      expect(await registry.head(SCOPE)).toEqual(second);
      const third = await registry.replaceHead(SCOPE, 2, headOf([]));
      expect(third).toEqual({ registryScope: SCOPE, revision: 3, releases: [], openExecutions: [] });
    });

    it("creates nothing when a scope never written is asked at a revision above 0", async () => {
      const registry = await factory();
      expect(
        await registry.replaceHead(
          "tenant-a",
          1,
          headOf([row("v19", "ACTIVE", { registryScope: "tenant-a" })]),
        ),
      ).toBeUndefined();
      expect(await registry.head("tenant-a")).toMatchObject({ revision: 0, releases: [] });
      expect(await registry.heads()).toEqual([]);
    });

    it(`lets exactly one of ${RACERS} concurrent creations of one scope win`, async () => {
      const registry = await factory();
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          registry.replaceHead(SCOPE, 0, headOf([row(`v${i}`, "ACTIVE")])),
        ),
      );
      const winners = answers.filter((a): a is ReleaseScopeHead => a !== undefined);
      expect(winners).toHaveLength(1);
      expect(await registry.head(SCOPE)).toEqual(winners[0]);
    });

    it(`lets exactly one of ${RACERS} concurrent advances from one revision win, and keeps its head whole`, async () => {
      const registry = await factory();
      await registry.replaceHead(SCOPE, 0, headOf([row("v19", "ACTIVE"), row("v20", "CANARY")]));
      // Each writer makes another release ACTIVE (a rollback, a promotion): one head, never a mix.
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          registry.replaceHead(
            SCOPE,
            1,
            headOf([
              row("v19", i % 2 ? "ACTIVE" : "DEPRECATED"),
              row("v20", i % 2 ? "CANARY" : "ACTIVE", { updatedAt: i }),
            ]),
          ),
        ),
      );
      const winners = answers.filter((a): a is ReleaseScopeHead => a !== undefined);
      expect(winners).toHaveLength(1);
      expect(winners[0]?.revision).toBe(2);
      const stored = await registry.head(SCOPE);
      expect(stored).toEqual(winners[0]);
      expect(stored.releases.filter((r) => r.status === "ACTIVE")).toHaveLength(1);
    });

    it("answers every written head ordered by scope", async () => {
      const registry = await factory();
      for (const scope of ["tenant-b", SCOPE, "tenant-a", "Tenant-C"])
        await registry.replaceHead(scope, 0, headOf([row("v19", "ACTIVE", { registryScope: scope })]));
      expect((await registry.heads()).map((h) => h.registryScope)).toEqual([
        SCOPE,
        "Tenant-C",
        "tenant-a",
        "tenant-b",
      ]);
    });

    it("keeps its own copies: changing what was written or answered changes nothing stored", async () => {
      const registry = await factory();
      const releases = [row("v19", "ACTIVE", { canaryTenants: ["t-1"] })];
      const next = { releases, openExecutions: [rollbackExecution("RBX-1")] };
      const written = await registry.replaceHead(SCOPE, 0, next);
      (releases[0]!.canaryTenants as string[]).push("t-2");
      releases.push(row("v20", "ACTIVE"));
      (next.openExecutions[0]!.conditions as unknown[]).length = 0;
      tryToChange(() => ((written!.releases as unknown[]).length = 0));
      const read = await registry.head(SCOPE);
      tryToChange(() => ((read.releases[0] as { status: string }).status = "RETIRED"));
      tryToChange(() => ((read.openExecutions as unknown[]).length = 0));
      for (const head of [await registry.head(SCOPE), ...(await registry.heads())]) {
        expect(head.releases).toEqual([row("v19", "ACTIVE", { canaryTenants: ["t-1"] })]);
        expect(head.openExecutions).toEqual([rollbackExecution("RBX-1")]);
      }
    });
  });
}

function describeHeadChecks(factory: () => Promise<ReleaseRegistry> | ReleaseRegistry): void {
  describe("the checks made before a head is written", () => {
    const refused: [string, Pick<ReleaseScopeHead, "releases" | "openExecutions">][] = [
      [
        "two ACTIVE releases of one prompt key and template",
        headOf([row("v19", "ACTIVE"), row("v20", "ACTIVE")]),
      ],
      [
        "a release of another scope",
        headOf([row("v19", "ACTIVE"), row("v20", "SHADOW", { registryScope: "tenant-a" })]),
      ],
      ["one version twice", headOf([row("v19", "ACTIVE"), row("v19", "SHADOW")])],
      ["a canary share above 100", headOf([row("v20", "CANARY", { canaryPercent: 101 })])],
      ["a negative canary share", headOf([row("v20", "CANARY", { canaryPercent: -1 })])],
      ["a fractional canary share", headOf([row("v20", "CANARY", { canaryPercent: 12.5 })])],
      ["an older state name", headOf([row("v19", "PRODUCTION" as "ACTIVE")])],
      ["an unknown state", headOf([row("v19", "LIVE" as "ACTIVE")])],
      [
        "an open execution of another scope",
        headOf([], [rollbackExecution("RBX-1", { registryScope: "tenant-a" })]),
      ],
    ];

    for (const [what, next] of refused) {
      it(`refuses ${what} with VALIDATION_FAILED, writing nothing`, async () => {
        const registry = await factory();
        expect(await codeOf(registry.replaceHead("tenant-new", 0, next)), "on a new scope").toBe(
          "VALIDATION_FAILED",
        );
        const before = await registry.replaceHead(SCOPE, 0, headOf([row("v18", "ACTIVE")]));
        expect(await codeOf(registry.replaceHead(SCOPE, 1, next)), "on a written scope").toBe(
          "VALIDATION_FAILED",
        );
        expect(await registry.head(SCOPE)).toEqual(before);
        expect((await registry.heads()).map((h) => h.registryScope)).toEqual([SCOPE]);
      });
    }

    it("takes one ACTIVE release per template of a key, canary shares 0 and 100, and a version of two keys", async () => {
      const registry = await factory();
      const next = headOf([
        row("v19", "ACTIVE"),
        row("v20", "CANARY", { canaryPercent: 0 }),
        row("v21", "CANARY", { canaryPercent: 100 }),
        row("v19b", "ACTIVE", { templateKey: "strict" }),
        row("v19", "ACTIVE", { promptKey: "mfa-step-up" }),
      ]);
      expect(await registry.replaceHead(SCOPE, 0, next)).toMatchObject({
        revision: 1,
        releases: next.releases,
      });
    });
  });
}

function describeHistory(factory: () => Promise<ReleaseRegistry> | ReleaseRegistry): void {
  describe("history", () => {
    it("appends an entry with a fresh id and answers it as given", async () => {
      const registry = await factory();
      const given = historyEntry("v20", 1_000, {
        kind: "TRANSITION_BLOCKED",
        blockers: ["EVALUATION_MISSING"],
        toStatus: "SHADOW",
      });
      const a = await registry.appendHistory(given);
      const b = await registry.appendHistory(
        historyEntry("v20", 2_000, { executionKey: "RBX-1", kind: "ROLLBACK" }),
      );
      // A move to CANARY records its share and targets with the entry.
      const canary = historyEntry("v20", 500, {
        toStatus: "CANARY",
        canary: { canaryPercent: 10, canaryTenants: ["acme"], canaryResourceFamilies: ["/api/orders"] },
      });
      expect(await registry.appendHistory(canary)).toEqual({ ...canary, id: expect.any(String) });
      expect(a).toEqual({ ...given, id: expect.any(String) });
      expect(a.id.length).toBeGreaterThan(0);
      expect(a.id).not.toBe(b.id);
      expect((await registry.history()).slice(0, 2)).toEqual([b, a]);
    });

    it("answers newest first: by time, then the later appended of one instant", async () => {
      const registry = await factory();
      await registry.appendHistory(historyEntry("e1", 1_000));
      await registry.appendHistory(historyEntry("e2", 3_000));
      await registry.appendHistory(historyEntry("e3", 2_000));
      await registry.appendHistory(historyEntry("e4", 3_000));
      await registry.appendHistory(historyEntry("e5", 3_000));
      expect((await registry.history()).map((e) => e.promptVersion)).toEqual(["e5", "e4", "e2", "e3", "e1"]);
    });

    it("narrows by scope, by version, and by both", async () => {
      const registry = await factory();
      await registry.appendHistory(historyEntry("v19", 1));
      await registry.appendHistory(historyEntry("v20", 2));
      await registry.appendHistory(historyEntry("v20", 3, { registryScope: "tenant-a" }));
      await registry.appendHistory(historyEntry("v19", 4, { registryScope: "tenant-a" }));
      const at = async (q: Parameters<ReleaseRegistry["history"]>[0]) =>
        (await registry.history(q)).map((e) => e.at);
      expect(await at({ registryScope: SCOPE })).toEqual([2, 1]);
      expect(await at({ registryScope: "tenant-a" })).toEqual([4, 3]);
      expect(await at({ promptVersion: "v20" })).toEqual([3, 2]);
      expect(await at({ registryScope: "tenant-a", promptVersion: "v19" })).toEqual([4]);
      expect(await at({ registryScope: "tenant-z" })).toEqual([]);
      expect(await at({})).toEqual([4, 3, 2, 1]);
    });

    it("matches a scope or filter as a value: an operator smuggled into a read matches nothing", async () => {
      const registry = await factory();
      await registry.replaceHead(SCOPE, 0, headOf([row("v19", "ACTIVE")]));
      await registry.appendHistory(historyEntry("v19", 1));
      const operator = { $ne: null } as unknown as string;
      expect(await registry.head(operator)).toMatchObject({ revision: 0, releases: [] });
      expect(await registry.history({ registryScope: operator })).toEqual([]);
      expect(await registry.history({ promptVersion: operator })).toEqual([]);
      expect(await registry.execution(operator)).toBeUndefined();
    });

    it("bounds the answer by the limit (default 100, at most 1,000) and refuses another", async () => {
      const registry = await factory();
      // Appended together (distinct times order them): one round trip's wait, not 105.
      await Promise.all(
        Array.from({ length: 105 }, (_, i) => registry.appendHistory(historyEntry(`v${i + 1}`, i + 1))),
      );
      expect(await registry.history()).toHaveLength(100);
      expect((await registry.history({ limit: 2 })).map((e) => e.promptVersion)).toEqual(["v105", "v104"]);
      expect(await registry.history({ limit: 1_000 })).toHaveLength(105);
      for (const limit of [0, -1, 1.5, 1_001, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(await codeOf(registry.history({ limit })), String(limit)).toBe("VALIDATION_FAILED");
      }
    });

    it("keeps its own copies and the id it assigns, never one smuggled into the input", async () => {
      const registry = await factory();
      const given = { ...historyEntry("v20", 1, { blockers: ["A"] }), id: "chosen", _id: "chosen" };
      const appended = await registry.appendHistory(given);
      expect(appended.id).not.toBe("chosen");
      (given.blockers as string[]).push("B");
      tryToChange(() => (appended.blockers as string[]).push("C"));
      const [listed] = await registry.history();
      tryToChange(() => ((listed as { actor: string }).actor = "mallory"));
      const [again] = await registry.history();
      expect(again).toEqual({ ...historyEntry("v20", 1, { blockers: ["A"] }), id: appended.id });
      expect(again).not.toHaveProperty("_id");
    });
  });
}

function describeExecutions(factory: () => Promise<ReleaseRegistry> | ReleaseRegistry): void {
  describe("rollback executions", () => {
    it("answers undefined for an unknown key, and a recorded execution by its key", async () => {
      const registry = await factory();
      expect(await registry.execution("RBX-none")).toBeUndefined();
      const open = rollbackExecution("RBX-1");
      await registry.recordExecution(open);
      await registry.recordExecution(rollbackExecution("RBX-2", { emergency: false, status: "EXECUTED" }));
      expect(await registry.execution("RBX-1")).toEqual(open);
      expect(await registry.execution("RBX-2")).toMatchObject({ status: "EXECUTED", emergency: false });
    });

    it("replaces an execution by key with its latest state", async () => {
      const registry = await factory();
      await registry.recordExecution(rollbackExecution("RBX-1"));
      const ratified = rollbackExecution("RBX-1", {
        status: "RATIFIED",
        approvedBy: "bob",
        approvedAt: 9_000,
      });
      await registry.recordExecution(ratified);
      expect(await registry.execution("RBX-1")).toEqual(ratified);
    });

    it("keeps its own copies of executions", async () => {
      const registry = await factory();
      const given = rollbackExecution("RBX-1");
      await registry.recordExecution(given);
      (given.conditions as unknown[]).length = 0;
      const read = await registry.execution("RBX-1");
      tryToChange(() => ((read as { status: string }).status = "REVERTED"));
      expect(await registry.execution("RBX-1")).toEqual(rollbackExecution("RBX-1"));
    });
  });
}
