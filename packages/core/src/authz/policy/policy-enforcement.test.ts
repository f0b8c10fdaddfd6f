import { describe, expect, it } from "vitest";
import type { PolicyTarget } from "./policy.js";
import { type EnforcedFields, enforcementChanged } from "./policy-enforcement.js";

const target: PolicyTarget = {
  targetType: "URL",
  targetIdentifier: "/a",
  httpMethod: "ANY",
  targetOrder: 0,
  sourceType: "MANUAL",
};
const base: EnforcedFields = {
  effect: "ALLOW",
  priority: 1,
  targets: [target],
  rules: [{ name: "r", conditions: [{ expression: "permitAll" }] }],
};

describe("enforcementChanged", () => {
  it("is false for an equal copy and for renamed rules", () => {
    expect(enforcementChanged(base, structuredClone(base))).toBe(false);
    expect(
      enforcementChanged(base, {
        ...base,
        rules: [{ name: "other", conditions: [{ expression: "permitAll" }] }],
      }),
    ).toBe(false);
  });

  it("is true for any change of effect, priority, target field, rule count or condition", () => {
    const variants: Partial<EnforcedFields>[] = [
      { effect: "DENY" },
      { priority: 2 },
      { targets: [] },
      { targets: [target, target] },
      ...(["targetType", "targetIdentifier", "httpMethod", "targetOrder", "sourceType"] as const).map(
        (key) => ({
          targets: [{ ...target, [key]: key === "targetOrder" ? 1 : "X" }],
        }),
      ),
      { rules: [] },
      { rules: [{ name: "r", conditions: [{ expression: "denyAll" }] }] },
      { rules: [{ name: "r", conditions: [{ expression: "permitAll" }, { expression: "permitAll" }] }] },
    ];
    for (const v of variants)
      expect(enforcementChanged(base, { ...base, ...v } as EnforcedFields)).toBe(true);
  });
});
