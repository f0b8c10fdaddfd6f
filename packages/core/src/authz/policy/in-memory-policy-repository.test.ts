import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator, type IdGenerator } from "../../kernel/id-generator.js";
import { InMemoryPolicyRepository } from "./in-memory-policy-repository.js";
import type { NewPolicy } from "./policy.js";
import { describePolicyRepositoryContract } from "./policy-repository.contract.js";

describePolicyRepositoryContract(
  "InMemoryPolicyRepository",
  (clock) => new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() }),
);

const policy: NewPolicy = {
  name: "p",
  description: "",
  effect: "ALLOW",
  priority: 0,
  targets: [
    { targetType: "URL", targetIdentifier: "/**", httpMethod: "ANY", targetOrder: 0, sourceType: "MANUAL" },
  ],
  rules: [],
  source: "MANUAL",
  approvalStatus: "NOT_REQUIRED",
  isActive: true,
  confidenceScore: null,
  aiModel: null,
};

describe("InMemoryPolicyRepository", () => {
  it("refuses a policy past maxPolicies with CONFLICT and keeps the others", async () => {
    const repo = new InMemoryPolicyRepository({
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
      maxPolicies: 2,
    });
    await repo.create(policy);
    const second = await repo.create(policy);
    await expect(repo.create(policy)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await repo.findAll()).toHaveLength(2);
    await repo.delete(second.id);
    await expect(repo.create(policy)).resolves.toMatchObject({ name: "p" });
  });

  it("refuses a colliding id from the generator instead of overwriting", async () => {
    const ids: IdGenerator = { id: () => "same", secret: () => "s" };
    const repo = new InMemoryPolicyRepository({ clock: new ManualClock(), ids });
    const first = await repo.create(policy);
    await expect(repo.create({ ...policy, name: "other" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await repo.findById("same")).toEqual(first);
  });

  it("refuses a maxPolicies that is not a positive integer", () => {
    for (const maxPolicies of [0, -1, 1.5, Number.NaN]) {
      expect(
        () =>
          new InMemoryPolicyRepository({
            clock: new ManualClock(),
            ids: new CryptoIdGenerator(),
            maxPolicies,
          }),
      ).toThrow(expect.objectContaining({ code: "CONFIGURATION_INVALID" }));
    }
  });
});
