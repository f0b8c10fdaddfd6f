import { describe, expect, it } from "vitest";
import { InMemoryPolicyRepository } from "../../authz/policy/in-memory-policy-repository.js";
import type { NewPolicy, Policy } from "../../authz/policy/policy.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { canonicalJson, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import { policySetHashOf, policySetSourceOf } from "./policy-set-hash.js";

const policy = (name: string): NewPolicy => ({
  name,
  description: "",
  effect: "DENY",
  priority: 10,
  targets: [{ targetType: "URL", targetIdentifier: `/admin/${name}/**`, httpMethod: "ANY" }] as never,
  rules: [],
  source: "MANUAL",
  approvalStatus: "NOT_REQUIRED",
  isActive: true,
  confidenceScore: null,
  aiModel: null,
});

describe("the policy set hash", () => {
  it("is SHA-256 of the canonical JSON of the policies by id, without store bookkeeping", async () => {
    const clock = new ManualClock();
    const repo = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
    const a = await repo.create(policy("a"));
    const b = await repo.create(policy("b"));
    const hash = await policySetSourceOf(repo).currentHash();
    expect(hash).toBe(policySetHashOf([b, a]));
    const strip = ({ createdSeq: _s, createdAt: _c, updatedAt: _u, ...rest }: Policy) => rest;
    const ordered = [a, b].sort((x, y) => (x.id < y.id ? -1 : 1)).map(strip);
    expect(hash).toBe(sha256Hex(canonicalJson(JSON.parse(JSON.stringify(ordered)))));
    expect(policySetHashOf([{ ...a, updatedAt: a.updatedAt + 5, createdSeq: 99 }, b])).toBe(hash);
  });

  it("changes with a policy's version or content", async () => {
    const repo = new InMemoryPolicyRepository({ clock: new ManualClock(), ids: new CryptoIdGenerator() });
    const a = await repo.create(policy("a"));
    const before = policySetHashOf([a]);
    expect(policySetHashOf([{ ...a, version: 2 }])).not.toBe(before);
    expect(policySetHashOf([{ ...a, priority: 11 }])).not.toBe(before);
    expect(policySetHashOf([])).toBe(sha256Hex("[]"));
  });
});
