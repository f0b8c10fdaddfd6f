import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { Policy } from "./policy.js";
import type { NewPolicyRevision, PolicyRevisionRepository } from "./policy-revision-repository.js";

function snapshot(id: string, version: number, overrides: Partial<Policy> = {}): Policy {
  return {
    id,
    name: `Policy ${id}`,
    description: "what it protects and why",
    effect: "ALLOW",
    priority: 0,
    targets: [
      {
        targetType: "URL",
        targetIdentifier: "/admin/**",
        httpMethod: "ANY",
        targetOrder: 0,
        sourceType: "MANUAL",
      },
    ],
    rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
    createdSeq: 1,
    createdAt: 1_000,
    updatedAt: 1_000 + version,
    version,
    ...overrides,
  };
}

function revision(policyId: string, version: number, at: number, extra: Partial<NewPolicyRevision> = {}) {
  return {
    policyId,
    policyVersion: version,
    action: version === 1 ? "CREATED" : "UPDATED",
    actor: "root",
    at,
    changedFields: version === 1 ? ["name", "rules"] : ["priority"],
    snapshot: snapshot(policyId, version),
    ...extra,
  } satisfies NewPolicyRevision;
}

/**
 * The behaviour every PolicyRevisionRepository adapter must show. `factory` returns a fresh, empty
 * repository.
 */
export function describePolicyRevisionRepositoryContract(
  name: string,
  factory: () => Promise<PolicyRevisionRepository> | PolicyRevisionRepository,
): void {
  describe(`PolicyRevisionRepository contract: ${name}`, () => {
    it("appends a revision with a fresh id and answers it as given", async () => {
      const repo = await factory();
      const given = revision("p1", 1, 5_000);
      const a = await repo.append(given);
      const b = await repo.append(revision("p1", 2, 6_000));
      expect(a).toEqual({ ...given, id: expect.any(String) });
      expect(a.id.length).toBeGreaterThan(0);
      expect(a.id).not.toBe(b.id);
      expect(await repo.listFor("p1")).toEqual([b, a]);
    });

    it("keeps a rejection's reason, and answers no reason field where none was given", async () => {
      const repo = await factory();
      await repo.append(revision("p1", 1, 1));
      await repo.append(revision("p1", 2, 2, { action: "REJECTED", changedFields: [], reason: "too broad" }));
      const [rejected, created] = await repo.listFor("p1");
      expect(rejected).toMatchObject({ action: "REJECTED", reason: "too broad" });
      expect(created).not.toHaveProperty("reason");
    });

    it("answers newest first: by time, then by policy version, then by append order", async () => {
      const repo = await factory();
      await repo.append(revision("p1", 2, 2_000));
      await repo.append(revision("p1", 1, 1_000));
      await repo.append(revision("p1", 4, 3_000));
      await repo.append(revision("p1", 3, 3_000));
      // A delete carries the last version the policy had, in the same millisecond as its update.
      await repo.append(revision("p1", 4, 3_000, { action: "DELETED", changedFields: [] }));
      const listed = await repo.listFor("p1");
      expect(listed.map((r) => [r.policyVersion, r.action])).toEqual([
        [4, "DELETED"],
        [4, "UPDATED"],
        [3, "UPDATED"],
        [2, "UPDATED"],
        [1, "CREATED"],
      ]);
    });

    it("answers each policy its own revisions, and none for an unknown policy", async () => {
      const repo = await factory();
      await repo.append(revision("p1", 1, 1));
      await repo.append(revision("p2", 1, 2));
      await repo.append(revision("p1", 2, 3));
      expect((await repo.listFor("p1")).map((r) => r.policyId)).toEqual(["p1", "p1"]);
      expect((await repo.listFor("p2")).map((r) => r.policyVersion)).toEqual([1]);
      expect(await repo.listFor("nope")).toEqual([]);
    });

    it("bounds the answer by the limit (default 100, at most 1,000) and refuses another", async () => {
      const repo = await factory();
      // Appended together (distinct times order them): one round trip's wait, not 105.
      await Promise.all(Array.from({ length: 105 }, (_, i) => repo.append(revision("p1", i + 1, i + 1))));
      expect(await repo.listFor("p1")).toHaveLength(100);
      const two = await repo.listFor("p1", 2);
      expect(two.map((r) => r.policyVersion)).toEqual([105, 104]);
      expect(await repo.listFor("p1", 1_000)).toHaveLength(105);
      for (const limit of [0, -1, 1.5, 1_001, Number.NaN]) {
        expect(await codeOf(repo.listFor("p1", limit)), String(limit)).toBe("VALIDATION_FAILED");
      }
    });

    it("keeps its own copies: changing what was appended or answered changes nothing stored", async () => {
      const repo = await factory();
      const given = revision("p1", 1, 1);
      const appended = await repo.append(given);
      (given.changedFields as string[]).push("later");
      (given.snapshot as { name: string }).name = "changed";
      (appended.changedFields as string[]).push("later");
      const [listed] = await repo.listFor("p1");
      expect(listed?.changedFields).toEqual(["name", "rules"]);
      expect(listed?.snapshot.name).toBe("Policy p1");
      (listed!.snapshot.rules as unknown[]).length = 0;
      expect((await repo.listFor("p1"))[0]?.snapshot.rules).toHaveLength(1);
    });

    it("stores the id it assigns, never one smuggled into the input", async () => {
      const repo = await factory();
      const smuggled = { ...revision("p1", 1, 1), id: "chosen", _id: "chosen" } as NewPolicyRevision;
      const appended = await repo.append(smuggled);
      expect(appended.id).not.toBe("chosen");
      const [listed] = await repo.listFor("p1");
      expect(listed).toEqual(appended);
      expect(Object.keys(listed!).sort()).toEqual(
        ["id", "policyId", "policyVersion", "action", "actor", "at", "changedFields", "snapshot"].sort(),
      );
    });
  });
}
