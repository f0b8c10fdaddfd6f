import { describe, expect, it } from "vitest";
import type { PolicyEffect, PolicyRule, TargetType } from "../policy/policy.js";
import { compileExpression } from "./expression-compiler.js";
import {
  convertCondition,
  PolicyExpressionConverter,
  policyExpression,
} from "./policy-expression-converter.js";
import { testContext } from "./test-context.js";

const rules = (...lists: string[][]): PolicyRule[] =>
  lists.map((list, i) => ({ name: `rule ${i + 1}`, conditions: list.map((expression) => ({ expression })) }));

/** `condition` (the un-negated one) defaults to `expression`. Each inner array is one rule. */
type Row = [
  label: string,
  effect: PolicyEffect,
  target: TargetType,
  rules: string[][],
  expression: string,
  condition?: string,
];

const OWNER = "#ownership.isOwner(authentication, returnObject)";
const MIXED = "(hasAuthority('ROLE_A')) or (isAuthenticated() and hasIpAddress('10.0.0.0/8'))";

// The conversion rules of policyCondition/policyExpression, row by row.
const ROWS: Row[] = [
  ["no conditions, ALLOW", "ALLOW", "URL", [], "permitAll"],
  ["no conditions, DENY", "DENY", "URL", [], "denyAll", "permitAll"],
  ["rules without conditions, ALLOW", "ALLOW", "URL", [[], []], "permitAll"],
  ["rules without conditions, DENY", "DENY", "METHOD", [[]], "denyAll", "permitAll"],
  ["single condition", "ALLOW", "URL", [["hasRole('ADMIN')"]], "hasRole('ADMIN')"],
  ["single condition, trimmed", "ALLOW", "URL", [["  isAuthenticated()\n"]], "isAuthenticated()"],
  [
    "single condition as written",
    "ALLOW",
    "URL",
    [["hasRole('A')&&!isBlocked()"]],
    "hasRole('A')&&!isBlocked()",
  ],
  [
    "single condition, DENY",
    "DENY",
    "URL",
    [["hasRole('ADMIN')"]],
    "!(hasRole('ADMIN'))",
    "hasRole('ADMIN')",
  ],
  ["bare ROLE_X", "ALLOW", "URL", [["ROLE_ADMIN"]], "hasAuthority('ROLE_ADMIN')"],
  ["bare ROLE_X, DENY", "DENY", "URL", [["ROLE_X"]], "!(hasAuthority('ROLE_X'))", "hasAuthority('ROLE_X')"],
  [
    "bare words with : . -",
    "ALLOW",
    "URL",
    [["S_u:r"], ["d.r"], ["R-O"]],
    "hasAnyAuthority('S_u:r', 'd.r', 'R-O')",
  ],
  [
    "several bare authorities",
    "ALLOW",
    "URL",
    [["ROLE_A", "ROLE_B", "C"]],
    "hasAnyAuthority('ROLE_A', 'ROLE_B', 'C')",
  ],
  ["gathered across rules in order", "ALLOW", "URL", [["C"], ["A", "B"]], "hasAnyAuthority('C', 'A', 'B')"],
  [
    "hasAuthority, hasAnyAuthority and bare words merged, duplicates dropped",
    "ALLOW",
    "URL",
    [["hasAuthority('A')", "B", "hasAnyAuthority('C', 'A')"]],
    "hasAnyAuthority('A', 'B', 'C')",
  ],
  ["one authority twice", "ALLOW", "URL", [["A"], ["hasAuthority('A')"]], "hasAuthority('A')"],
  [
    "authorities, DENY",
    "DENY",
    "URL",
    [["A", "B"]],
    "!(hasAnyAuthority('A', 'B'))",
    "hasAnyAuthority('A', 'B')",
  ],
  [
    "authority with a quote",
    "ALLOW",
    "URL",
    [["hasAuthority('it''s')", "B"]],
    "hasAnyAuthority('it''s', 'B')",
  ],
  [
    "mixed conditions",
    "ALLOW",
    "URL",
    [["ROLE_A", "isAuthenticated() and hasIpAddress('10.0.0.0/8')"]],
    MIXED,
  ],
  ["hasRole is not plain", "ALLOW", "URL", [["hasRole('A')", "B"]], "(hasRole('A')) or (hasAuthority('B'))"],
  [
    "mixed, DENY",
    "DENY",
    "URL",
    [["A"], ["isBlocked()"]],
    "!((hasAuthority('A')) or (isBlocked()))",
    "(hasAuthority('A')) or (isBlocked())",
  ],
  ["single permitAll, DENY", "DENY", "URL", [["permitAll"]], "denyAll", "permitAll"],
  ["single denyAll, DENY", "DENY", "URL", [["denyAll"]], "permitAll", "denyAll"],
  ["permitAll is no authority", "ALLOW", "URL", [["permitAll", "A"]], "(permitAll) or (hasAuthority('A'))"],
  // hasPermission in URL policies
  ["URL: only hasPermission, ALLOW", "ALLOW", "URL", [["hasPermission('doc', 'read')"]], "denyAll"],
  [
    "URL: only hasPermission, DENY",
    "DENY",
    "URL",
    [["hasPermission('doc', 'read')"]],
    "permitAll",
    "denyAll",
  ],
  [
    "URL: every condition stripped",
    "ALLOW",
    "URL",
    [["hasPermission('a', 'b')"], ["!hasPermission('c', 'd') or hasPermission('e', 'f')"]],
    "denyAll",
  ],
  ["URL: condition dropped", "ALLOW", "URL", [["hasPermission('d', 'r')", "hasRole('A')"]], "hasRole('A')"],
  [
    "URL: and operand removed",
    "ALLOW",
    "URL",
    [["hasRole('A') and hasPermission('d', 'r')"]],
    "hasRole('A')",
  ],
  ["URL: or operand removed", "ALLOW", "URL", [["hasPermission('d','r') || isAnonymous()"]], "isAnonymous()"],
  [
    "URL: negated operand removed",
    "DENY",
    "URL",
    [["!hasPermission('d', 'r') and hasRole('A')"]],
    "!(hasRole('A'))",
    "hasRole('A')",
  ],
  [
    "URL: nested removal",
    "ALLOW",
    "URL",
    [["isAuthenticated() && (hasPermission('a', 'b') || hasRole('X'))"]],
    "isAuthenticated() and hasRole('X')",
  ],
  [
    "URL: group of hasPermission removed",
    "ALLOW",
    "URL",
    [["(hasPermission('a', 'b') or hasPermission('c', 'd')) and hasRole('X')"]],
    "hasRole('X')",
  ],
  [
    "URL: stripping leaves a plain authority",
    "ALLOW",
    "URL",
    [["hasAuthority('A') and hasPermission('d', 'r')", "B"]],
    "hasAnyAuthority('A', 'B')",
  ],
  [
    "URL: stripped remainder joined canonically",
    "ALLOW",
    "URL",
    [["hasRole('A') && hasPermission('d','r') && isAnonymous()", "B"]],
    "(hasRole('A') and isAnonymous()) or (hasAuthority('B'))",
  ],
  // METHOD targets keep hasPermission
  [
    "METHOD: hasPermission kept",
    "ALLOW",
    "METHOD",
    [["hasPermission('doc', 'read')"]],
    "hasPermission('doc', 'read')",
  ],
  [
    "METHOD: kept, DENY",
    "DENY",
    "METHOD",
    [["hasPermission('d','r')"]],
    "!(hasPermission('d','r'))",
    "hasPermission('d','r')",
  ],
  [
    "METHOD: owner or admin",
    "ALLOW",
    "METHOD",
    [["ROLE_ADMIN", OWNER]],
    `(hasAuthority('ROLE_ADMIN')) or (${OWNER})`,
  ],
];

describe("PolicyExpressionConverter", () => {
  const converter = new PolicyExpressionConverter();

  it.each(ROWS)("%s", (_, effect, target, conditions, expression, condition = expression) => {
    const policy = { effect, rules: rules(...conditions) };
    expect(converter.convert(policy, target)).toBe(expression);
    expect(policyExpression(policy, target)).toBe(expression);
    expect(converter.convertCondition(policy, target)).toEqual({ condition, effect });
    expect(convertCondition(policy, target)).toEqual({ condition, effect });
    // Every result compiles.
    expect(compileExpression(expression).source).toBe(expression);
    expect(compileExpression(condition).source).toBe(condition);
  });

  it("gives DENY the same meaning through convert and through !(condition)", () => {
    const contexts = [testContext(), testContext({ zeroTrustAction: "BLOCK" })];
    for (const [, effect, target, conditions] of ROWS.filter((row) => row[1] === "DENY")) {
      const policy = { effect, rules: rules(...conditions) };
      for (const ctx of contexts) {
        const whole = compileExpression(policyExpression(policy, target)).evaluate(ctx);
        const held = compileExpression(convertCondition(policy, target).condition).evaluate(ctx);
        expect(whole).toBe(!held);
      }
    }
  });
});
