import { describe, expect, it } from "vitest";
import type { PolicyTarget } from "../authz/policy/policy.js";
import { rulesFitText, rulesToText, targetsToText, textToRules, textToTargets } from "./policy-text.js";

const targets: PolicyTarget[] = [
  {
    targetType: "METHOD",
    targetIdentifier: "OrderService.get(string)",
    httpMethod: "ANY",
    targetOrder: 1,
    sourceType: "RESOURCE",
  },
  {
    targetType: "URL",
    targetIdentifier: "/api/orders/**",
    httpMethod: "GET",
    targetOrder: 0,
    sourceType: "MANUAL",
  },
];

describe("policy text (the edit form's targets and rules)", () => {
  it("writes targets one per line in target order and reads them back, keeping a known target's sourceType", () => {
    const text = targetsToText(targets);
    expect(text).toBe("URL GET /api/orders/**\nMETHOD OrderService.get(string)");
    expect(textToTargets(`  ${text.replace("\n", "\r\n\r\n")}\nURL POST /api/new  `, targets)).toEqual([
      { targetType: "URL", targetIdentifier: "/api/orders/**", httpMethod: "GET", sourceType: "MANUAL" },
      {
        targetType: "METHOD",
        targetIdentifier: "OrderService.get(string)",
        httpMethod: "ANY",
        sourceType: "RESOURCE",
      },
      { targetType: "URL", targetIdentifier: "/api/new", httpMethod: "POST", sourceType: "MANUAL" },
    ]);
  });

  it("reads a method identifier whose parameter types are separated by ', ' (the scanner's form) back whole", () => {
    const id = "OrderService.update(string, Order)";
    const own: PolicyTarget = {
      targetType: "METHOD",
      targetIdentifier: id,
      httpMethod: "ANY",
      targetOrder: 0,
      sourceType: "RESOURCE",
    };
    expect(textToTargets(targetsToText([own]), [own])).toEqual([
      { targetType: "METHOD", targetIdentifier: id, httpMethod: "ANY", sourceType: "RESOURCE" },
    ]);
  });

  it.each(["GET /a", "URL /a", "URL FETCH /a", "URL GET /a extra", "METHOD", "FILE /etc/passwd"])(
    "refuses the target line %j with VALIDATION_FAILED naming its line",
    (line) => {
      expect(() => textToTargets(`URL GET /ok\n${line}`, [])).toThrow(
        expect.objectContaining({
          code: "VALIDATION_FAILED",
          details: { issues: [expect.objectContaining({ path: "targets.2" })] },
        }),
      );
    },
  );

  it("writes rules as [name] blocks and reads them back", () => {
    const rules = [
      {
        name: "admins",
        conditions: [{ expression: "hasRole('ADMIN')" }, { expression: "#ai.hasAction('ALLOW')" }],
      },
      { name: "with [brackets]", conditions: [{ expression: "isAuthenticated()" }] },
    ];
    expect(textToRules(rulesToText(rules))).toEqual(rules);
    expect(textToRules("")).toEqual([]);
  });

  it("refuses a condition before any rule line, and keeps a rule with no condition for the schema to judge", () => {
    expect(() => textToRules("hasRole('A')")).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
    expect(textToRules("[empty]")).toEqual([{ name: "empty", conditions: [] }]);
  });

  it("says when rules cannot be written as text (a line break in a name or expression)", () => {
    expect(rulesFitText({ rules: [{ name: "a", conditions: [{ expression: "x" }] }] })).toBe(true);
    expect(rulesFitText({ rules: [{ name: "a", conditions: [{ expression: "x\nor y" }] }] })).toBe(false);
  });
});
