import { describe, expect, it } from "vitest";
import type { Policy, PolicyTarget } from "../authz/policy/policy.js";
import type { ManagedResource } from "./managed-resource.js";
import { policiesOf, relationOf } from "./resource-references.js";

const resource = (
  identifier: string,
  httpMethod?: ManagedResource["httpMethod"],
  type: "URL" | "METHOD" = "URL",
) =>
  ({
    id: "r",
    resourceIdentifier: identifier,
    resourceType: type,
    ...(type === "URL" ? { httpMethod: httpMethod ?? "ANY" } : {}),
  }) as ManagedResource;
const target = (
  identifier: string,
  httpMethod: PolicyTarget["httpMethod"] = "ANY",
  type: "URL" | "METHOD" = "URL",
) =>
  ({
    targetType: type,
    targetIdentifier: identifier,
    httpMethod,
    targetOrder: 0,
    sourceType: "MANUAL",
  }) as PolicyTarget;

describe("relationOf: which targets reference a resource", () => {
  it.each([
    ["/api/orders/{id}", "GET", "/api/orders/{id}", "GET", "references"],
    ["/api/orders/{orderId}", "GET", "/api/orders/{id}", "GET", "references"],
    ["/api/orders/{id}", "ANY", "/api/orders/{id}", "DELETE", "references"],
    ["/api/orders/{id}", "GET", "/api/orders/{id}", "HEAD", "references"],
    ["/api/orders/", "GET", "/api/orders", "GET", "references"],
    ["/api/orders/{id}", "HEAD", "/api/orders/{id}", "GET", undefined],
    ["/api/orders/{id}", "POST", "/api/orders/{id}", "GET", undefined],
    ["/api/orders/{id}", "GET", "/api/orders/{id}", "ANY", "partial"],
    ["/api/orders/**", "ANY", "/api/orders/{id}", "GET", "broader"],
    ["/api/orders/**", "GET", "/api/orders/{id}", "HEAD", "broader"],
    ["/api/orders/**", "POST", "/api/orders/{id}", "GET", undefined],
    ["/api/*/{id}", "GET", "/api/orders/{id}", "GET", "broader"],
    ["/api/orders/7", "GET", "/api/orders/{id}", "GET", undefined],
    ["/api/customers/**", "ANY", "/api/orders/{id}", "GET", undefined],
    ["not a pattern", "ANY", "/api/orders", "GET", undefined],
  ] as const)("target %s %s on resource %s %s: %s", (t, tm, r, rm, expected) => {
    expect(relationOf(target(t, tm), resource(r, rm))).toBe(expected);
  });

  it("matches METHOD resources by the exact identifier only, and never across types", () => {
    const m = resource("OrderService.get(string)", undefined, "METHOD");
    expect(relationOf(target("OrderService.get(string)", "ANY", "METHOD"), m)).toBe("references");
    expect(relationOf(target("OrderService.get(number)", "ANY", "METHOD"), m)).toBeUndefined();
    expect(relationOf(target("/OrderService.get(string)", "ANY", "URL"), m)).toBeUndefined();
    expect(
      relationOf(target("/api/orders", "GET", "METHOD"), resource("/api/orders", "GET")),
    ).toBeUndefined();
  });
});

describe("policiesOf: connected policies and the impact view", () => {
  const policy = (id: string, targets: PolicyTarget[], extra: Partial<Policy> = {}) =>
    ({
      id,
      name: id,
      effect: "ALLOW",
      approvalStatus: "NOT_REQUIRED",
      isActive: true,
      targets,
      ...extra,
    }) as Policy;

  it("connects only executable references; pending, rejected, inactive and broader ones are impact", () => {
    const r = resource("/api/orders/{id}", "DELETE");
    const views = policiesOf(r, [
      policy("manual", [target("/api/orders/{id}", "DELETE")]),
      policy("approved", [target("/api/orders/{id}")], { approvalStatus: "APPROVED" }),
      policy("pending", [target("/api/orders/{id}", "DELETE")], { approvalStatus: "PENDING" }),
      policy("rejected", [target("/api/orders/{id}", "DELETE")], {
        approvalStatus: "REJECTED",
        isActive: false,
      }),
      policy("inactive", [target("/api/orders/{id}", "DELETE")], { isActive: false }),
      policy("broad", [target("/api/**", "ANY")]),
      policy("elsewhere", [target("/api/customers/**")]),
    ]);
    expect(views.connected.map((l) => l.policyId)).toEqual(["manual", "approved"]);
    expect(views.impact.map((l) => [l.policyId, l.relation])).toEqual([
      ["pending", "references"],
      ["rejected", "references"],
      ["inactive", "references"],
      ["broad", "broader"],
    ]);
  });

  it("counts a policy once, by its reference when it has a broader target too", () => {
    const r = resource("/api/orders", "GET");
    const views = policiesOf(r, [policy("both", [target("/api/**"), target("/api/orders", "GET")])]);
    expect(views.connected).toEqual([
      expect.objectContaining({ policyId: "both", targetIdentifier: "/api/orders" }),
    ]);
    expect(views.impact).toEqual([]);
  });
});
