import { describe, expect, it } from "vitest";
import { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import { CONDITION_TEMPLATES, findConditionTemplate } from "./condition-templates.js";
import { formErrorsOf } from "./manual-form-errors.js";
import { manualDraftOf, manualFormAction, readManualPolicyForm, sampleOf } from "./manual-policy-form.js";
import { applyTemplate } from "./manual-template-apply.js";
import { newManualForm } from "./create-tab.js";
import { PlatformError } from "../kernel/platform-error.js";

const fields = (f: Record<string, string>) => readManualPolicyForm(f);
const base = {
  name: "Orders: managers",
  effect: "ALLOW",
  priority: "5",
  "target.0.type": "URL",
  "target.0.identifier": "/api/orders/**",
  "target.0.method": "GET",
  "target.0.source": "RESOURCE",
  "target.1.type": "URL",
  "target.1.identifier": "",
  "target.1.method": "ANY",
  "rule.0.name": "managers",
  "rule.0.condition.0": "hasRole('MANAGER')",
  "rule.0.condition.1": "",
  "rule.1.name": "",
  "rule.1.condition.0": "",
};

describe("the manual form parser", () => {
  it("turns the posted rows into a MANUAL policy, skipping the blank rows the page always offers", () => {
    const built = manualDraftOf(fields(base));
    expect(built).toEqual({
      draft: {
        name: "Orders: managers",
        description: "",
        effect: "ALLOW",
        priority: 5,
        targets: [
          {
            targetType: "URL",
            targetIdentifier: "/api/orders/**",
            httpMethod: "GET",
            sourceType: "RESOURCE",
          },
        ],
        rules: [{ name: "managers", conditions: [{ expression: "hasRole('MANAGER')" }] }],
        source: "MANUAL",
      },
      rows: { targets: [0], rules: [{ row: 0, conditions: [0] }] },
    });
  });

  it("reads several rules with several conditions, names an unnamed rule, and a METHOD target is ANY", () => {
    const built = manualDraftOf(
      fields({
        ...base,
        "target.1.type": "METHOD",
        "target.1.identifier": "OrderService.get(string)",
        "target.1.method": "POST",
        "rule.0.condition.1": "#ai.isAllowed()",
        "rule.1.condition.0": "",
        "rule.1.condition.1": "hasIpAddress('10.0.0.0/8')",
      }),
    );
    if ("errors" in built) throw new Error(JSON.stringify(built.errors));
    expect(built.draft.targets?.[1]).toMatchObject({
      targetType: "METHOD",
      httpMethod: "ANY",
      sourceType: "MANUAL",
    });
    expect(built.draft.rules).toEqual([
      {
        name: "managers",
        conditions: [{ expression: "hasRole('MANAGER')" }, { expression: "#ai.isAllowed()" }],
      },
      { name: "Rule 2", conditions: [{ expression: "hasIpAddress('10.0.0.0/8')" }] },
    ]);
    expect(built.rows.rules[1]).toEqual({ row: 1, conditions: [1] });
  });

  it.each([
    ["no name", { name: "  " }, "name"],
    ["an unknown effect", { effect: "MAYBE" }, "effect"],
    ["a priority that is not a whole number", { priority: "1e3" }, "priority"],
    ["a priority out of range", { priority: "9999999" }, "priority"],
    ["no target", { "target.0.identifier": " " }, "target.0.identifier"],
    ["an unknown target type", { "target.0.type": "FILE" }, "target.0.type"],
    ["an unknown method", { "target.0.method": "BREW" }, "target.0.method"],
    ["a named rule without conditions", { "rule.0.condition.0": "" }, "rule.0.condition.0"],
    ["a control character in the name", { name: "a\u0007b" }, "name"],
    ["a bidi override in a rule name", { "rule.0.name": "a\u202Eb" }, "rule.0.name"],
    [
      "a line separator in a condition",
      { "rule.0.condition.0": "hasRole('A\u2028B')" },
      "rule.0.condition.0",
    ],
    ["an oversized name", { name: "n".repeat(201) }, "name"],
    [
      "an oversized condition",
      { "rule.0.condition.0": `hasRole('${"A".repeat(5_000)}')` },
      "rule.0.condition.0",
    ],
  ])("puts %s next to its field", (_, change, key) => {
    const built = manualDraftOf(fields({ ...base, ...change }));
    expect("errors" in built && Object.keys(built.errors)).toEqual([key]);
  });

  it("keeps line breaks in a description but refuses other control characters there", () => {
    expect("draft" in manualDraftOf(fields({ ...base, description: "one\r\ntwo\tthree" }))).toBe(true);
    const built = manualDraftOf(fields({ ...base, description: "one\u001b[2Jtwo" }));
    expect("errors" in built && built.errors.description).toMatch(/control/);
  });

  it("reads the action: preview by default, save, quick, a known template; anything else is none", () => {
    expect(manualFormAction({})).toEqual({ kind: "preview" });
    expect(manualFormAction({ action: "save" })).toEqual({ kind: "save" });
    expect(manualFormAction({ action: "quick" })).toEqual({ kind: "quick" });
    expect(manualFormAction({ action: "template:ip-range" })).toEqual({
      kind: "template",
      templateId: "ip-range",
    });
    expect(manualFormAction({ action: "template:__proto__" })).toBeUndefined();
    expect(manualFormAction({ action: "delete" })).toBeUndefined();
  });

  it("checks the sample: method, path and zero-trust action", () => {
    const errors = {};
    const form = fields({
      ...base,
      "sample.method": "get",
      "sample.path": "/api/orders/7",
      "sample.roles": "MANAGER, USER",
      "sample.zeroTrustAction": "allow",
    });
    expect(sampleOf(form.sample, errors)).toEqual({
      method: "GET",
      path: "/api/orders/7",
      roles: ["MANAGER", "USER"],
      authorities: [],
      anonymous: false,
      zeroTrustAction: "ALLOW",
    });
    const bad: Record<string, string> = {};
    sampleOf(
      fields({ "sample.method": "ANY", "sample.path": "/a?b=1", "sample.zeroTrustAction": "MAYBE" }).sample,
      bad,
    );
    expect(Object.keys(bad).sort()).toEqual(["sample.method", "sample.path", "sample.zeroTrustAction"]);
  });

  it("places the PAP's refusals on the form rows they are about (blank rows skipped)", () => {
    const rows = { targets: [2], rules: [{ row: 1, conditions: [3] }] };
    const invalid = new PlatformError("VALIDATION_FAILED", "x", {
      details: { issues: [{ path: "targets.0.targetIdentifier", message: "bad pattern" }] },
    });
    expect(formErrorsOf(invalid, rows)).toEqual({ "target.2.identifier": "bad pattern" });
    const expression = new PlatformError("POLICY_EXPRESSION_INVALID", "x", {
      details: {
        expression: "hasRole(",
        position: 8,
        reason: "unexpected end",
        rule: "r",
        ruleIndex: 0,
        condition: 0,
      },
    });
    expect(formErrorsOf(expression, rows)).toEqual({
      "rule.1.condition.3": "not a valid expression: unexpected end (at character 9)",
    });
    expect(formErrorsOf(new PlatformError("CONFLICT", "x"), rows)).toBeUndefined();
  });
});

describe("the condition templates", () => {
  const compiler = new ExpressionCompiler();
  const build = (id: string, values: Record<string, string>) => findConditionTemplate(id)!.build(values);

  it("build expressions the language compiles", () => {
    const built = [
      build("business-hours", { start: "09:00", end: "18:00", days: "mon, tue wed,THU friday" }),
      build("business-hours", { start: "22:00", end: "06:00", days: "MON TUE WED THU FRI SAT SUN" }),
      build("ip-range", { ranges: "10.0.0.0/8, 2001:db8::/32" }),
      build("role", { roles: "ADMIN ROLE_MANAGER ADMIN" }),
      build("permission", { permissions: "order:read" }),
      build("authenticated", {}),
      build("ai-allowed", {}),
      build("ai-not-blocked", {}),
      build("ai-action-in", { actions: "allow, CHALLENGE" }),
    ];
    expect(built).toEqual([
      { expression: "timeBetween('09:00', '18:00') and dayOfWeekIn('MON', 'TUE', 'WED', 'THU', 'FRI')" },
      { expression: "timeBetween('22:00', '06:00')" },
      { expression: "(hasIpAddress('10.0.0.0/8') or hasIpAddress('2001:db8::/32'))" },
      { expression: "hasAnyRole('ADMIN', 'ROLE_MANAGER')" },
      { expression: "hasAuthority('order:read')" },
      { expression: "isAuthenticated()" },
      { expression: "#ai.isAllowed()" },
      { expression: "!#ai.isBlocked()" },
      { expression: "#ai.hasActionIn('ALLOW', 'CHALLENGE')" },
    ]);
    for (const b of built)
      if ("expression" in b) expect(compiler.validate(b.expression)).toMatchObject({ ok: true });
  });

  it.each([
    ["business-hours", { start: "9", end: "18:00", days: "MON" }],
    ["business-hours", { start: "09:00", end: "09:00", days: "MON" }],
    ["business-hours", { start: "09:00", end: "17:00", days: "someday" }],
    ["ip-range", { ranges: "10.0.0.0/8') or permitAll or ('" }],
    ["ip-range", { ranges: "" }],
    ["role", { roles: "ADMIN') or permitAll or hasRole('X" }],
    ["role", { roles: Array.from({ length: 21 }, (_, i) => `R${i}`).join(" ") }],
    ["permission", { permissions: "" }],
    ["ai-action-in", { actions: "ALLOW, MAYBE" }],
  ])("%s refuses %j", (id, values) => {
    expect(build(id, values)).toHaveProperty("error");
  });

  it("offers no template the language cannot express (no MFA-recent function)", () => {
    expect(CONDITION_TEMPLATES.map((t) => t.id)).toEqual([
      "business-hours",
      "ip-range",
      "role",
      "permission",
      "authenticated",
      "ai-allowed",
      "ai-not-blocked",
      "ai-action-in",
    ]);
  });

  it("the Add button narrows the rule's last condition (and) by default, or adds an alternative (or)", () => {
    const form = { ...fields(base), templateValues: { "role.roles": "AUDITOR" }, templateRule: "0" };
    expect(form.templateJoin).toBe("and");
    // The form's blank row stays a blank row.
    expect(applyTemplate(form, "role").form.rules[0]?.conditions).toEqual([
      "(hasRole('MANAGER')) and (hasRole('AUDITOR'))",
      "",
    ]);
    expect(applyTemplate({ ...form, templateJoin: "or" }, "role").form.rules[0]?.conditions).toEqual([
      "hasRole('MANAGER')",
      "hasRole('AUDITOR')",
    ]);
    expect(fields({ ...base, templateJoin: "or" }).templateJoin).toBe("or");
    expect(fields({ ...base, templateJoin: "xor" }).templateJoin).toBe("and");
    const fresh = {
      ...newManualForm(),
      templateValues: { "ip-range.ranges": "10.0.0.1" },
      templateRule: "7",
    };
    expect(applyTemplate(fresh, "ip-range").form.rules).toEqual([
      { name: "", conditions: ["hasIpAddress('10.0.0.1')"] },
    ]);
    expect(applyTemplate(fresh, "role").errors).toEqual({ "tpl.role": "give at least one role" });
  });
});
