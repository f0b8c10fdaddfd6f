import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryPolicyRepository } from "./in-memory-policy-repository.js";
import type { NewPolicy, PolicyTarget } from "./policy.js";
import { DefaultPolicyRetrievalPoint } from "./policy-retrieval-point.js";

const url: PolicyTarget = {
  targetType: "URL",
  targetIdentifier: "/a/**",
  httpMethod: "ANY",
  targetOrder: 0,
  sourceType: "MANUAL",
};
const method: PolicyTarget = { ...url, targetType: "METHOD", targetIdentifier: "a.Svc.m()" };

function policy(
  name: string,
  priority: number,
  targets: PolicyTarget[],
  extra: Partial<NewPolicy> = {},
): NewPolicy {
  return {
    name,
    description: "",
    effect: "ALLOW",
    priority,
    targets,
    rules: [],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
    ...extra,
  };
}

describe("DefaultPolicyRetrievalPoint", () => {
  it("returns the policies with a URL or a METHOD target, each in evaluation order", async () => {
    const repository = new InMemoryPolicyRepository({
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const prp = new DefaultPolicyRetrievalPoint({ repository });
    await repository.create(policy("url-10", 10, [url]));
    await repository.create(policy("both-9", 9, [method, url]));
    await repository.create(policy("method-2", 2, [method]));
    await repository.create(policy("url-9-later", 9, [url]));
    await repository.create(
      policy("pending", 1, [url], { source: "AI_GENERATED", approvalStatus: "PENDING" }),
    );
    await repository.create(policy("inactive", 0, [method], { isActive: false }));
    expect((await prp.findUrlPolicies()).map((p) => p.name)).toEqual([
      "pending",
      "both-9",
      "url-9-later",
      "url-10",
    ]);
    expect((await prp.findMethodPolicies()).map((p) => p.name)).toEqual(["inactive", "method-2", "both-9"]);
  });

  it("reads through, so a change is visible on the next call", async () => {
    const repository = new InMemoryPolicyRepository({
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const prp = new DefaultPolicyRetrievalPoint({ repository });
    expect(await prp.findUrlPolicies()).toEqual([]);
    const created = await repository.create(policy("p", 0, [url]));
    expect(await prp.findUrlPolicies()).toEqual([created]);
    await repository.delete(created.id);
    expect(await prp.findUrlPolicies()).toEqual([]);
  });
});
