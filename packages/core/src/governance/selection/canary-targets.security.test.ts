import { describe, expect, it } from "vitest";
import { familyAdmitted } from "./canary-targets.js";

/** An attacker chooses the path of a request; the family must not follow a path that walks out of it. */
describe("familyAdmitted against chosen paths", () => {
  const orders = ["/api/orders"];

  it.each([
    ["a dot-dot segment", "/api/orders/../admin"],
    ["an escaped dot-dot segment", "/api/orders/%2e%2e/admin"],
    ["a dot segment", "/api/orders/./1"],
    ["an empty segment", "/api/orders//1"],
    ["a doubled leading slash", "//api/orders/1"],
    ["no leading slash", "api/orders/1"],
    ["a full URL", "https://evil.example/api/orders/1"],
    ["a backslash separator", "/api/orders\\..\\admin"],
    ["an empty address", ""],
  ])("places nobody in a family through %s", (_, resourceAddress) => {
    expect(familyAdmitted(orders, { resourceAddress })).toBe(false);
  });

  it("keeps an escaped slash as data inside one segment, never a separator", () => {
    expect(familyAdmitted(orders, { resourceAddress: "/api%2Forders/1" })).toBe(false);
    expect(familyAdmitted(["/api"], { resourceAddress: "/api/orders%2F..%2F..%2Fadmin" })).toBe(true);
    expect(familyAdmitted(["/admin"], { resourceAddress: "/api/orders%2F..%2F..%2Fadmin" })).toBe(false);
  });

  it("never throws on huge, Unicode, control-character or wrongly typed input", () => {
    const huge = `/api/orders/${"a".repeat(1_000_000)}`;
    expect(familyAdmitted(orders, { resourceAddress: huge })).toBe(true);
    expect(familyAdmitted(orders, { resourceAddress: "/api/orders/\u0000\n\uD800\u{1F600}" })).toBe(true);
    const odd = [42, null, { toString: () => "/api/orders" }] as unknown as string[];
    expect(familyAdmitted(odd, { resourceAddress: "/api/orders", resourceId: "42" })).toBe(false);
    expect(familyAdmitted(orders, { resourceAddress: 7 as unknown as string })).toBe(false);
  });
});
