import { describe, expect, it } from "vitest";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryPolicyRevisionRepository } from "./in-memory-policy-revision-repository.js";
import { describePolicyRevisionRepositoryContract } from "./policy-revision-repository.contract.js";

describePolicyRevisionRepositoryContract(
  "InMemoryPolicyRevisionRepository",
  () => new InMemoryPolicyRevisionRepository({ ids: new CryptoIdGenerator() }),
);

describe("InMemoryPolicyRevisionRepository", () => {
  const at = (policyId: string, n: number) => ({
    policyId,
    policyVersion: n,
    action: "UPDATED" as const,
    actor: "root",
    at: n,
    changedFields: [],
    snapshot: {} as never,
  });

  it("keeps at most maxRevisions across all policies, dropping the oldest appended", async () => {
    const repo = new InMemoryPolicyRevisionRepository({ ids: new CryptoIdGenerator(), maxRevisions: 3 });
    await repo.append(at("a", 1));
    await repo.append(at("b", 2));
    await repo.append(at("a", 3));
    await repo.append(at("b", 4));
    expect((await repo.listFor("a")).map((r) => r.policyVersion)).toEqual([3]);
    expect((await repo.listFor("b")).map((r) => r.policyVersion)).toEqual([4, 2]);
  });

  it("refuses a maxRevisions that is not a positive integer", () => {
    for (const maxRevisions of [0, -1, 1.5]) {
      expect(
        () => new InMemoryPolicyRevisionRepository({ ids: new CryptoIdGenerator(), maxRevisions }),
      ).toThrow(expect.objectContaining({ code: "CONFIGURATION_INVALID" }));
    }
  });
});
