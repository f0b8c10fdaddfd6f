import { describe, expect, it } from "vitest";
import { toCasbinWorkload, toKeyMatch2 } from "./casbin-workload.js";
import { ReferencePdp } from "./reference-pdp.js";
import { buildOptions, generateWorkload } from "./workload.js";

describe("bench workload", () => {
  const workload = generateWorkload({ policyCount: 1_000, requestCount: 4_000 });

  it("is deterministic for a seed", () => {
    const again = generateWorkload({ policyCount: 1_000, requestCount: 4_000 });
    expect(again.policies).toEqual(workload.policies);
    expect(again.requests).toEqual(workload.requests);
    expect([...again.actions]).toEqual([...workload.actions]);
    expect(generateWorkload({ policyCount: 1_000, requestCount: 10, seed: 1 }).policies).not.toEqual(
      workload.policies,
    );
  });

  it("has N policies p-<n> with createdSeq n, shuffled, over N/8..N/4 resources", () => {
    expect(workload.policies).toHaveLength(1_000);
    const seqs = workload.policies.map((p) => p.createdSeq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    expect(seqs).not.toEqual([...seqs].sort((a, b) => a - b));
    for (const p of workload.policies) expect(p.id).toBe(`p-${p.createdSeq}`);
    expect(workload.resources.length).toBeGreaterThanOrEqual(1_000 / 8);
    expect(workload.resources.length).toBeLessThanOrEqual(1_000 / 4);
  });

  it("has priority ties, both effects, non-executable policies and the condition kinds of the issue", () => {
    const priorities = new Set(workload.policies.map((p) => p.priority));
    expect(priorities.size).toBeLessThan(400);
    expect(priorities.has(9) || priorities.has(50)).toBe(true);
    expect(workload.policies.some((p) => p.effect === "DENY")).toBe(true);
    expect(workload.policies.some((p) => !p.isActive || p.approvalStatus === "PENDING")).toBe(true);
    const text = workload.policies.flatMap((p) =>
      p.rules.flatMap((r) => r.conditions.map((c) => c.expression)),
    );
    for (const needle of [
      "hasRole(",
      "hasAnyAuthority(",
      "isAuthenticated()",
      "#ai.isBlocked()",
      "!#ai.needsChallenge()",
      "hasIpAddress('10.0.0.0/8')",
      "permitAll",
    ]) {
      expect(text.some((t) => t.includes(needle))).toBe(true);
    }
    expect(text.some((t) => /^ROLE_[A-Z]+$/.test(t))).toBe(true);
    const patterns = workload.policies.flatMap((p) => p.targets.map((t) => t.targetIdentifier));
    expect(patterns).toContain("/admin/**");
    expect(patterns.some((t) => /^\/admin\/[a-z-]+\/\*\*$/.test(t))).toBe(true);
    expect(patterns.some((t) => t.endsWith("/*/export"))).toBe(true);
  });

  it("sends ~5% anonymous requests and ~70% that some policy decides", async () => {
    const anonymous = workload.requests.filter((r) => r.authentication === undefined).length / 4_000;
    expect(anonymous).toBeGreaterThan(0.03);
    expect(anonymous).toBeLessThan(0.07);
    const ref = new ReferencePdp();
    await ref.build(workload.policies, buildOptions(workload, "FIRST_APPLICABLE"));
    const matched = workload.requests.filter((r) => ref.decideSync(r).policyId !== undefined).length / 4_000;
    expect(matched).toBeGreaterThan(0.62);
    expect(matched).toBeLessThan(0.78);
    expect(workload.users).toHaveLength(2_000);
    expect(workload.users.every((u) => u.roles.length >= 1 && u.roles.length <= 3)).toBe(true);
  });

  it("translates to casbin rows with keyMatch2 objects and role links", () => {
    expect(toKeyMatch2("/api/v1/orders/{id}")).toBe("/api/v1/orders/:id");
    expect(toKeyMatch2("/api/v1/orders/{id:\\d+}/items")).toBe("/api/v1/orders/:id/items");
    expect(toKeyMatch2("/api/v1/orders/*/export")).toBe("/api/v1/orders/*/export");
    expect(toKeyMatch2("/admin/**")).toBe("/admin/*");
    const form = toCasbinWorkload(workload, "rbac");
    expect(form.policyRows.every((r) => r.length === 3)).toBe(true);
    expect(form.groupingRows).toContainEqual(["AUTHENTICATED", "ANYONE"]);
    expect(form.model).toContain("keyMatch2(r.obj, p.obj)");
  });
});
