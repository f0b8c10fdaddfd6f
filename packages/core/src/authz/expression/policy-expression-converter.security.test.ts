import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { PolicyRule } from "../policy/policy.js";
import { convertCondition, isBareAuthority } from "./policy-expression-converter.js";

const rules = (...conditionLists: string[][]): PolicyRule[] =>
  conditionLists.map((list, i) => ({
    name: `rule ${i + 1}`,
    conditions: list.map((expression) => ({ expression })),
  }));

describe("PolicyExpressionConverter: invalid conditions are refused, never joined", () => {
  it.each([
    [
      "an invalid condition",
      [["hasRole('A')"], ["isAuthenticated() and"]],
      "rule 2",
      0,
      "expected a condition",
    ],
    ["a blank condition", [["A", "   "]], "rule 1", 1, "empty expression"],
    ["an unknown function", [["hasRol('A')"]], "rule 1", 0, 'unknown function "hasRol"'],
    ["a bare function name", [["isAuthenticated"]], "rule 1", 0, "must be called with parentheses"],
    [
      "an attempt to escape the parentheses",
      [["A", "isAnonymous()) or (permitAll"]],
      "rule 1",
      1,
      'unexpected ")"',
    ],
    ["a bare keyword", [["A", "or"]], "rule 1", 1, "unexpected 'or'"],
  ])("refuses %s with the rule and condition index", (_, conditions, rule, index, reason) => {
    try {
      convertCondition({ effect: "ALLOW", rules: rules(...conditions) }, "URL");
      expect.unreachable();
    } catch (error) {
      expect(isPlatformError(error) && error.code).toBe("POLICY_EXPRESSION_INVALID");
      const details = isPlatformError(error) ? error.details : undefined;
      expect(details).toMatchObject({ rule, condition: index });
      expect(String(details?.reason)).toContain(reason);
    }
  });
});

describe("isBareAuthority", () => {
  it.each([
    ["ROLE_ADMIN", true],
    ["READ_PRIVILEGE", true],
    ["SCOPE_users:read", true],
    ["doc.read", true],
    ["_internal", true],
    ["admin", true],
    ["permitAll", false],
    ["denyAll", false],
    ["isAuthenticated", false],
    ["hasRole", false],
    ["isAllowed", false],
    ["TRUE", false],
    ["Or", false],
    ["not", false],
    ["authentication", false],
    ["returnObject", false],
    ["ROLE ADMIN", false],
    ["1ROLE", false],
    ["ROLE_ADMIN()", false],
    ["'ROLE_ADMIN'", false],
    ["", false],
    ["RÔLE", false],
  ])("%j → %s", (text, expected) => {
    expect(isBareAuthority(text)).toBe(expected);
  });
});
