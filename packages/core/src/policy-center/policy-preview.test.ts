import { describe, expect, it } from "vitest";
import { ROOT } from "../authz/policy/policy.fixture.js";
import type { PolicyCreateInput } from "../authz/policy/policy-schema.js";
import { targeting } from "../resources/resources.fixture.js";
import { authoringSetup } from "./policy-authoring.fixture.js";
import { DRAFT_POLICY_ID, samplePathOf } from "./policy-preview.js";

const draft = (over: Partial<PolicyCreateInput> = {}): PolicyCreateInput => ({
  name: "Order managers",
  effect: "ALLOW",
  priority: 5,
  targets: [{ targetType: "URL", targetIdentifier: "/api/orders/{id}", httpMethod: "GET" }],
  rules: [
    { name: "managers", conditions: [{ expression: "hasRole('MANAGER')" }, { expression: "ROLE_AUDITOR" }] },
    { name: "trusted", conditions: [{ expression: "#ai.isAllowed() and hasIpAddress('10.0.0.0/8')" }] },
  ],
  ...over,
});

describe("the policy preview", () => {
  it("converts each rule and the whole policy as the decision point does (DENY negated)", async () => {
    const s = authoringSetup();
    const p = await s.preview.preview(draft());
    expect(p.rules).toEqual([
      { name: "managers", expressions: { URL: "(hasRole('MANAGER')) or (hasAuthority('ROLE_AUDITOR'))" } },
      { name: "trusted", expressions: { URL: "#ai.isAllowed() and hasIpAddress('10.0.0.0/8')" } },
    ]);
    expect(p.expressions).toEqual({
      URL: "(hasRole('MANAGER')) or (hasAuthority('ROLE_AUDITOR')) or (#ai.isAllowed() and hasIpAddress('10.0.0.0/8'))",
    });
    const denied = await s.preview.preview(
      draft({
        effect: "DENY",
        targets: [
          { targetType: "URL", targetIdentifier: "/x" },
          { targetType: "METHOD", targetIdentifier: "OrderService.get(string)" },
        ],
        rules: [{ name: "r", conditions: [{ expression: "hasPermission('order', 'read')" }] }],
      }),
    );
    // hasPermission is method-level only: stripped from the URL expression.
    expect(denied.expressions).toEqual({ URL: "permitAll", METHOD: "!(hasPermission('order', 'read'))" });
    expect((await s.preview.preview(draft({ rules: [] }))).expressions).toEqual({ URL: "permitAll" });
  });

  it("answers the simulator's question for a sample with the draft among the stored policies", async () => {
    const s = authoringSetup();
    await s.pap.create(
      targeting("/api/**", "ANY", {
        name: "API: signed in",
        priority: 100,
        rules: [{ name: "in", conditions: [{ expression: "isAuthenticated()" }] }],
      }),
      ROOT,
    );
    const asManager = await s.preview.preview(draft(), { roles: ["MANAGER"] });
    expect(asManager.simulation).toMatchObject({
      method: "GET",
      path: "/api/orders/1",
      subject: { username: "simulated", authorities: ["ROLE_MANAGER"] },
      algorithm: "FIRST_APPLICABLE",
      decision: { granted: true, policyId: DRAFT_POLICY_ID, policyName: "Order managers" },
      decidedByDraft: true,
    });
    expect(asManager.simulation?.trail.map((t) => [t.name, t.outcome])).toEqual([
      ["Order managers", "decided"],
      ["API: signed in", "not-reached"],
    ]);
    const outside = await s.preview.preview(draft(), {
      roles: ["USER"],
      remoteAddress: "10.1.2.3",
      zeroTrustAction: "ALLOW",
    });
    expect(outside.simulation?.decision).toMatchObject({ granted: true, policyId: DRAFT_POLICY_ID });
    const anonymous = await s.preview.preview(draft(), {
      anonymous: true,
      method: "POST",
      path: "/api/orders/7/",
    });
    expect(anonymous.simulation).toMatchObject({
      method: "POST",
      path: "/api/orders/7",
      subject: null,
      decision: { granted: false, policyName: "API: signed in" },
      decidedByDraft: false,
    });
    await expect(s.preview.preview(draft(), { path: "/api/orders/%2e%2e/admin" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { issues: [{ path: "sample.path" }] },
    });
    const methodOnly = await s.preview.preview(
      draft({ targets: [{ targetType: "METHOD", targetIdentifier: "OrderService.get(string)" }] }),
    );
    expect(methodOnly.simulation).toBeNull();
  });

  it("lists the managed resources its targets match, and with what relation", async () => {
    const s = authoringSetup();
    const one = await s.defined("/api/orders/{id}", "GET");
    const all = await s.defined("/api/orders/{id}", "ANY", "Any order");
    await s.defined("/api/users", "GET", "Users");
    const p = await s.preview.preview(draft());
    expect(p.impact.resources.map((r) => [r.id, r.relation, r.status])).toEqual([
      [one.id, "references", "PERMISSION_CREATED"],
      [all.id, "partial", "PERMISSION_CREATED"],
    ]);
    const broad = await s.preview.preview(
      draft({ targets: [{ targetType: "URL", targetIdentifier: "/api/**", httpMethod: "ANY" }] }),
    );
    expect(broad.impact.resources.map((r) => r.relation)).toEqual(["broader", "broader", "broader"]);
  });

  it("names the policies that shadow it and those it shadows, by priority then creation order", async () => {
    const s = authoringSetup();
    const earlier = await s.pap.create(targeting("/api/**", "ANY", { name: "API first", priority: 1 }), ROOT);
    const sameLater = await s.pap.create(
      targeting("/api/orders/{id}", "GET", { name: "Equal priority, older", priority: 5 }),
      ROOT,
    );
    const later = await s.pap.create(
      targeting("/api/orders/{id}", "GET", { name: "Later one", priority: 50 }),
      ROOT,
    );
    const partly = await s.pap.create(
      targeting("/api/orders/{id}", "GET", {
        name: "Later, two targets",
        priority: 60,
        targets: [
          { targetType: "URL", targetIdentifier: "/api/orders/{id}", httpMethod: "GET" },
          { targetType: "URL", targetIdentifier: "/other", httpMethod: "GET" },
        ],
      }),
      ROOT,
    );
    const inactive = await s.pap.create(
      targeting("/api/orders/{id}", "GET", { name: "Off", priority: 0 }),
      ROOT,
    );
    await s.pap.deactivate(inactive.id, ROOT);
    const p = await s.preview.preview(draft());
    expect(p.impact.algorithm).toBe("FIRST_APPLICABLE");
    expect(p.impact.shadowedBy.map((l) => [l.policyId, l.targets, l.entirely])).toEqual([
      [earlier.id, ["GET /api/orders/{id}"], true],
      // Equal priority: the stored one was created first, so it comes first.
      [sameLater.id, ["GET /api/orders/{id}"], true],
    ]);
    expect(p.impact.shadows.map((l) => [l.policyId, l.targets, l.entirely])).toEqual([
      [later.id, ["GET /api/orders/{id}"], true],
      [partly.id, ["GET /api/orders/{id}"], false],
    ]);
  });

  it("reports no shadows under an algorithm that considers every matching policy", async () => {
    const s = authoringSetup({ algorithm: "DENY_OVERRIDES" });
    await s.pap.create(targeting("/api/**", "ANY", { priority: 1 }), ROOT);
    const p = await s.preview.preview(draft());
    expect(p.impact).toMatchObject({ algorithm: "DENY_OVERRIDES", shadowedBy: [], shadows: [] });
    expect(p.simulation?.algorithm).toBe("DENY_OVERRIDES");
  });

  it("refuses what the PAP refuses, and changes nothing", async () => {
    const s = authoringSetup();
    await expect(s.preview.preview(draft({ targets: [] }))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(
      s.preview.preview(draft({ rules: [{ name: "r", conditions: [{ expression: "hasRole(" }] }] })),
    ).rejects.toMatchObject({ code: "POLICY_EXPRESSION_INVALID", details: { ruleIndex: 0, condition: 0 } });
    expect(await s.policies.findAll()).toEqual([]);
    expect(s.audit.events()).toEqual([]);
  });

  it("makes a sample path from a pattern", () => {
    expect(samplePathOf("/api/orders/{id}/items/*")).toBe("/api/orders/1/items/x");
    expect(samplePathOf("/static/**")).toBe("/static");
    expect(samplePathOf("/**")).toBe("/");
    expect(samplePathOf("/files/*.css")).toBe("/files/x.css");
  });
});
