import { describe, expect, it } from "vitest";
import { BOB, ROOT } from "../authz/policy/policy.fixture.js";
import { urlResource } from "../resources/resources.fixture.js";
import { authoringSetup } from "./policy-authoring.fixture.js";
import { QuickCreateBody } from "./quick-create.js";

const grant = (resourceId: string, roles: string[] = [], permissions: string[] = []) =>
  QuickCreateBody.parse({ resourceId, roles, permissions });

describe("quick grant", () => {
  it("creates one ALLOW policy (MANUAL, NOT_REQUIRED) on the resource and connects it, audited", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders/{id}", "DELETE", "Cancel an order");
    const { policy, resource } = await s.quick.grant(
      grant(r.id, ["MANAGER", "ROLE_ADMIN"], ["order:cancel"]),
      ROOT,
    );
    expect(policy).toMatchObject({
      name: "Grant: Cancel an order",
      description:
        "Quick grant on URL DELETE /api/orders/{id}: roles MANAGER, ROLE_ADMIN; permissions order:cancel",
      effect: "ALLOW",
      source: "MANUAL",
      approvalStatus: "NOT_REQUIRED",
      isActive: true,
      targets: [
        {
          targetType: "URL",
          targetIdentifier: "/api/orders/{id}",
          httpMethod: "DELETE",
          sourceType: "RESOURCE",
        },
      ],
      rules: [
        {
          name: "Quick grant",
          conditions: [
            { expression: "hasAnyRole('MANAGER', 'ROLE_ADMIN')" },
            { expression: "hasAuthority('order:cancel')" },
          ],
        },
      ],
    });
    expect(resource.status).toBe("POLICY_CONNECTED");
    expect(await s.status(r.id)).toBe("POLICY_CONNECTED");
    const types = s.audit.events().map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["policy.created", "resource.connected", "policy-center.quick-create"]),
    );
    expect(s.audit.events().find((e) => e.type === "policy-center.quick-create")).toMatchObject({
      principal: "root",
      data: { policyId: policy.id, resourceId: r.id, from: "PERMISSION_CREATED", to: "POLICY_CONNECTED" },
    });
  });

  it("grants again on a connected resource, and takes the name and description given", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders", "GET");
    await s.quick.grant(grant(r.id, ["USER"]), ROOT);
    const { policy, resource } = await s.quick.grant(
      QuickCreateBody.parse({
        resourceId: r.id,
        permissions: ["order:read"],
        name: "Readers",
        description: "Auditors read",
      }),
      ROOT,
    );
    expect(policy).toMatchObject({
      name: "Readers",
      description: "Auditors read",
      rules: [{ conditions: [{ expression: "hasAuthority('order:read')" }] }],
    });
    expect(resource.status).toBe("POLICY_CONNECTED");
  });

  it("targets a METHOD resource by its identifier", async () => {
    const s = authoringSetup();
    const seeded = await s.seed({
      ...urlResource("x"),
      resourceType: "METHOD",
      resourceIdentifier: "OrderService.get(string)",
      httpMethod: undefined,
    });
    await s.service.define(seeded.id, {}, ROOT);
    const { policy } = await s.quick.grant(grant(seeded.id, ["ADMIN"]), ROOT);
    expect(policy.targets).toEqual([
      {
        targetType: "METHOD",
        targetIdentifier: "OrderService.get(string)",
        httpMethod: "ANY",
        targetOrder: 0,
        sourceType: "RESOURCE",
      },
    ]);
  });

  it("refuses an undefined or excluded resource (ILLEGAL_STATE_TRANSITION), an unknown one (NOT_FOUND), a user (ACCESS_DENIED)", async () => {
    const s = authoringSetup();
    const fresh = await s.seed(urlResource("/api/fresh"));
    const excluded = await s.seed(urlResource("/api/gone"));
    await s.service.exclude(excluded.id, ROOT);
    await expect(s.quick.grant(grant(fresh.id, ["USER"]), ROOT)).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
      details: { status: "NEEDS_DEFINITION" },
    });
    await expect(s.quick.grant(grant(excluded.id, ["USER"]), ROOT)).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
      message: expect.stringMatching(/restore/),
    });
    await expect(s.quick.grant(grant("nope", ["USER"]), ROOT)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.quick.grant(grant(fresh.id, ["USER"]), BOB)).rejects.toMatchObject({
      code: "ACCESS_DENIED",
    });
    expect(await s.policies.findAll()).toEqual([]);
    expect(s.audit.events().map((e) => e.type)).toContain("policy.access-denied");
  });

  it.each([
    ["no role and no permission", { resourceId: "r1" }],
    ["a role with a quote", { resourceId: "r1", roles: ["ADMIN') or permitAll or hasRole('X"] }],
    ["a role with a space", { resourceId: "r1", roles: ["order admin"] }],
    ["too many roles", { resourceId: "r1", roles: Array.from({ length: 21 }, (_, i) => `R${i}`) }],
    ["a malformed resource id", { resourceId: "../etc", roles: ["A"] }],
    ["an unknown field", { resourceId: "r1", roles: ["A"], effect: "DENY" }],
    ["a bidi override in the name", { resourceId: "r1", roles: ["A"], name: "a\u202Eb" }],
    ["an oversized name", { resourceId: "r1", roles: ["A"], name: "n".repeat(201) }],
  ])("the body refuses %s", (_, body) => {
    expect(QuickCreateBody.safeParse(body).success).toBe(false);
  });
});
