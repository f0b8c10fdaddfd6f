import { describe, expect, it } from "vitest";
import { familyAdmitted, tenantAdmitted } from "./canary-targets.js";

describe("tenantAdmitted", () => {
  it("narrows nothing without a list, or with an empty one", () => {
    expect(tenantAdmitted(undefined, undefined)).toBe(true);
    expect(tenantAdmitted([], "t-9")).toBe(true);
  });

  it("takes a listed tenant only, exactly", () => {
    expect(tenantAdmitted(["t-1", "t-2"], "t-2")).toBe(true);
    expect(tenantAdmitted(["t-1"], "t-3")).toBe(false);
    expect(tenantAdmitted(["t-1"], "T-1")).toBe(false);
    expect(tenantAdmitted(["t-1"], "t-1 ")).toBe(false);
  });

  it("leaves a request without a tenant outside any list, even one listing the empty string", () => {
    expect(tenantAdmitted(["t-1"], undefined)).toBe(false);
    expect(tenantAdmitted(["t-1", ""], "")).toBe(false);
  });
});

describe("familyAdmitted", () => {
  const orders = ["/api/orders"];

  it("narrows nothing without a list, or with an empty one", () => {
    expect(familyAdmitted(undefined, {})).toBe(true);
    expect(familyAdmitted([], { resourceAddress: "/x" })).toBe(true);
  });

  it("takes an address in a path family, on whole segments", () => {
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders/42" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders/42/lines" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders-admin" })).toBe(false);
    expect(familyAdmitted(orders, { resourceAddress: "/api/ordersX/1" })).toBe(false);
    expect(familyAdmitted(orders, { resourceAddress: "/api" })).toBe(false);
    expect(familyAdmitted(orders, { resourceAddress: "/other/api/orders" })).toBe(false);
  });

  it("compares canonical paths: trailing slashes and escapes of raw bytes do not matter, case does", () => {
    expect(familyAdmitted(["/api/orders/"], { resourceAddress: "/api/orders/1" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders/" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/%6Frders/1" })).toBe(true);
    expect(familyAdmitted(["/café"], { resourceAddress: "/caf%c3%a9/menu" })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/API/orders/1" })).toBe(false);
  });

  it("takes a resource ID equal to a family, exactly", () => {
    expect(familyAdmitted(["billing-service"], { resourceId: "billing-service" })).toBe(true);
    expect(familyAdmitted(["billing-service"], { resourceId: "billing-service-2" })).toBe(false);
    expect(familyAdmitted(["billing-service"], { resourceId: "billing" })).toBe(false);
    expect(familyAdmitted(["billing-service"], { resourceAddress: "/billing-service/x" })).toBe(false);
  });

  it("takes a request that matches any listed family, by address or by ID", () => {
    const families = ["billing-service", "/api/orders"];
    expect(familyAdmitted(families, { resourceAddress: "/api/users", resourceId: "billing-service" })).toBe(
      true,
    );
    expect(familyAdmitted(families, { resourceAddress: "/api/orders/1", resourceId: "users" })).toBe(true);
    expect(familyAdmitted(families, { resourceAddress: "/api/users", resourceId: "users" })).toBe(false);
    expect(familyAdmitted(families, {})).toBe(false);
  });

  it("lets the root family take every plain path, and an empty family take nothing", () => {
    expect(familyAdmitted(["/"], { resourceAddress: "/anything/at/all" })).toBe(true);
    expect(familyAdmitted(["/"], { resourceAddress: "/" })).toBe(true);
    expect(familyAdmitted([""], { resourceAddress: "/api", resourceId: "" })).toBe(false);
  });
});
