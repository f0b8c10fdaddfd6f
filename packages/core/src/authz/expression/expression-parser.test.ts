import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { ExpressionNode } from "./expression-node.js";
import { parseExpression } from "./expression-parser.js";

/** A compact shape of a tree: `or(and(a,b),c)`, calls by name, `!x` for not. */
function shape(node: ExpressionNode): string {
  switch (node.kind) {
    case "or":
    case "and":
      return `${node.kind}(${node.operands.map(shape).join(",")})`;
    case "not":
      return `!${shape(node.operand)}`;
    case "boolean":
      return String(node.value);
    case "call":
      return node.receiver === undefined ? node.name : `#${node.receiver}.${node.name}`;
  }
}

/** The position and reason of the error parsing `source` throws. */
function parseFailure(source: string): { position: number; reason: string } {
  try {
    parseExpression(source);
  } catch (error) {
    if (!isPlatformError(error) || error.code !== "POLICY_EXPRESSION_INVALID") throw error;
    return error.details as { position: number; reason: string };
  }
  throw new Error(`parsed: ${source}`);
}

describe("parseExpression: structure", () => {
  it.each([
    ["permitAll or denyAll and isAnonymous()", "or(permitAll,and(denyAll,isAnonymous))"],
    ["permitAll and denyAll or isAnonymous()", "or(and(permitAll,denyAll),isAnonymous)"],
    ["(permitAll or denyAll) and isAnonymous()", "and(or(permitAll,denyAll),isAnonymous)"],
    ["!permitAll and denyAll", "and(!permitAll,denyAll)"],
    ["not permitAll or denyAll", "or(!permitAll,denyAll)"],
    ["!(permitAll or denyAll)", "!or(permitAll,denyAll)"],
    ["!!permitAll", "!!permitAll"],
    ["not not permitAll", "!!permitAll"],
    ["NOT permitAll AND denyAll OR permitAll", "or(and(!permitAll,denyAll),permitAll)"],
    ["permitAll && denyAll || isAnonymous()", "or(and(permitAll,denyAll),isAnonymous)"],
    ["permitAll or denyAll or isAnonymous()", "or(permitAll,denyAll,isAnonymous)"],
    ["permitAll or (denyAll or isAnonymous())", "or(permitAll,or(denyAll,isAnonymous))"],
    ["TRUE and False", "and(true,false)"],
    ["((((permitAll))))", "permitAll"],
    ["not(permitAll)", "!permitAll"],
    ["isAuthenticated() and !#ai.isBlocked()", "and(isAuthenticated,!#ai.isBlocked)"],
    ["#ownership.isOwner(authentication, returnObject)", "#ownership.isOwner"],
    [" \t\r\n permitAll \n", "permitAll"],
  ])("%s → %s", (source, expected) => {
    expect(shape(parseExpression(source))).toBe(expected);
  });

  it("records source spans", () => {
    const node = parseExpression("isAnonymous() or !hasRole('A')");
    expect(node).toMatchObject({ kind: "or", position: 0, end: 30 });
    if (node.kind !== "or") throw new Error("shape");
    expect(node.operands[0]).toMatchObject({ kind: "call", name: "isAnonymous", position: 0, end: 13 });
    expect(node.operands[1]).toMatchObject({ kind: "not", position: 17, end: 30 });
    const hasRole = node.operands[1]?.kind === "not" ? node.operands[1].operand : undefined;
    expect(hasRole).toMatchObject({ kind: "call", position: 18, end: 30, parenthesized: true });
    expect(hasRole?.kind === "call" && hasRole.args[0]).toMatchObject({
      kind: "string",
      value: "A",
      position: 26,
      end: 29,
    });
  });

  it("reads string literals with '' as the quote escape and a backslash as an ordinary character", () => {
    const node = parseExpression("hasAuthority('it''s') or hasAuthority('a\\b') or hasAuthority('''')");
    if (node.kind !== "or") throw new Error("shape");
    const values = node.operands.map((op) =>
      op.kind === "call" && op.args[0]?.kind === "string" ? op.args[0].value : "",
    );
    expect(values).toEqual(["it's", "a\\b", "'"]);
  });

  it("keeps unicode inside string literals", () => {
    const node = parseExpression("hasAuthority('管理者 ✓')");
    expect(node.kind === "call" && node.args[0]).toMatchObject({ value: "管理者 ✓" });
  });

  it("reads boolean, identifier and multiple arguments", () => {
    const node = parseExpression("#ai.hasActionOrDefault(TRUE, 'ALLOW', 'CHALLENGE')");
    expect(node.kind === "call" && node.args.map((a) => a.kind)).toEqual(["boolean", "string", "string"]);
    expect(node.kind === "call" && node.args[0]).toMatchObject({ value: true });
  });

  it("marks the bare and the parenthesized forms", () => {
    expect(parseExpression("permitAll")).toMatchObject({ parenthesized: false });
    expect(parseExpression("denyAll()")).toMatchObject({ parenthesized: true });
  });
});

describe("parseExpression: errors carry the exact position", () => {
  it.each([
    ["", 0, "empty expression"],
    ["   ", 0, "empty expression"],
    ["permitAll or", 12, "expected a condition, found end of expression"],
    ["permitAll and and denyAll", 14, "unexpected 'and'"],
    ["permitAll denyAll", 10, 'unexpected "denyAll"'],
    ["(permitAll", 10, "expected ')', found end of expression"],
    ["permitAll)", 9, 'unexpected ")"'],
    ["()", 1, 'expected a condition, found ")"'],
    ["hasRole('A'", 11, "expected ',' or ')', found end of expression"],
    ["hasRole('A", 8, "unterminated string"],
    ["hasRole('A',)", 12, 'expected an argument, found ")"'],
    ["hasRole(,'A')", 8, 'expected an argument, found ","'],
    ["hasRole('A' 'B')", 12, "expected ',' or ')', found \"'B'\""],
    ["hasRole(ADMIN)", 8, 'unexpected name "ADMIN": arguments are quoted strings'],
    ['hasRole("A")', 8, "strings take single quotes"],
    ["hasRole('')", 8, "argument 1 of hasRole: must not be empty"],
    ["hasRole(1)", 8, "argument 1 of hasRole: expected a quoted string"],
    ["hasRole()", 7, "hasRole expects 1 argument, got 0"],
    ["hasRole('A', 'B')", 13, "hasRole expects 1 argument, got 2"],
    ["hasAnyRole()", 10, "hasAnyRole expects at least 1 argument, got 0"],
    ["isAuthenticated('x')", 16, "isAuthenticated expects 0 arguments, got 1"],
    ["isAuthenticated", 0, "isAuthenticated must be called with parentheses: isAuthenticated()"],
    ["isAnonymous() and hasRol('A')", 18, 'unknown function "hasRol"'],
    ["HasRole('A')", 0, 'unknown function "HasRole"'],
    ["#ai.isAllowed", 4, "#ai.isAllowed must be called with parentheses"],
    ["#ai.hasRole('A')", 4, 'unknown method "#ai.hasRole"'],
    ["#ai isAllowed()", 4, "expected '.' after '#ai', found \"isAllowed\""],
    ["#ai.()", 4, "expected a method name after '#ai.', found \"(\""],
    ["# ai.isAllowed()", 0, "expected a variable name after '#'"],
    ["#ai.hasAction('allow')", 14, "unknown zero-trust action"],
    [
      "#ai.hasActionOrDefault('ALLOW', 'BLOCK')",
      23,
      "argument 1 of #ai.hasActionOrDefault: expected true or false",
    ],
    ["#ai.hasActionOrDefault(true)", 22, "#ai.hasActionOrDefault expects at least 2 arguments, got 1"],
    ["#ownership.isOwner(returnObject, authentication)", 19, "expected authentication"],
    ["#ownership.isOwner(authentication)", 18, "#ownership.isOwner expects 2 arguments, got 1"],
    ["hasIpAddress('10.0.0.0/33')", 13, "invalid prefix length: expected 0..32"],
    ["timeBetween('09:00', '9:30')", 21, "invalid time"],
    ["timeBetween('09:00', '09:00')", 21, "end time equals start time"],
    ["dateBetween('2026-12-31', '2026-01-01')", 26, "end date is before start date"],
    ["dateBetween('2026-02-30', '2026-03-01')", 12, "invalid date"],
    ["dayOfWeekIn('MONDAY', 'FUNDAY')", 22, "invalid day"],
    ["12", 0, "a number is not a condition"],
    ["'x'", 0, "a string is not a condition"],
    ["permitAll & denyAll", 10, "use '&&' or 'and'"],
    ["permitAll | denyAll", 10, "use '||' or 'or'"],
    ["permitAll != denyAll", 10, "comparisons ('!=') are not supported"],
    ["permitAll.toString()", 9, "property access and method calls are not allowed"],
  ])("%j fails at %i", (source, position, reason) => {
    const failure = parseFailure(source);
    expect(failure.position).toBe(position);
    expect(failure.reason).toContain(reason);
  });

  it("puts expression, position and reason into the error details and the message", () => {
    try {
      parseExpression("hasRole(");
      expect.unreachable();
    } catch (error) {
      expect(isPlatformError(error) && error.code).toBe("POLICY_EXPRESSION_INVALID");
      expect(isPlatformError(error) && error.details).toEqual({
        expression: "hasRole(",
        position: 8,
        reason: "expected an argument, found end of expression",
      });
      expect((error as Error).message).toBe(
        "Invalid policy expression at 8: expected an argument, found end of expression",
      );
    }
  });
});
