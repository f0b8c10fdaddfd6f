import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { ExpressionCompiler } from "./expression-compiler.js";
import {
  MAX_ARGUMENTS,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
  parseExpression,
} from "./expression-parser.js";

/** The reason and position parsing `source` fails with; anything but POLICY_EXPRESSION_INVALID fails the test. */
function rejection(source: string): { position: number; reason: string } {
  try {
    parseExpression(source);
  } catch (error) {
    if (isPlatformError(error) && error.code === "POLICY_EXPRESSION_INVALID") {
      return error.details as { position: number; reason: string };
    }
    throw error;
  }
  throw new Error(`accepted hostile input: ${source.slice(0, 80)}`);
}

describe("parseExpression: hostile input is a parse error, never another exception", () => {
  it.each([
    ["T(java.lang.Runtime).getRuntime().exec('id')", 0, 'unknown function "T"'],
    ["T(java.lang.Runtime)", 0, 'unknown function "T"'],
    ["new java.lang.ProcessBuilder('x')", 0, 'unknown function "new"'],
    ["constructor", 0, 'unknown function "constructor"'],
    ["constructor()", 0, 'unknown function "constructor"'],
    ["__proto__", 0, 'unknown function "__proto__"'],
    ["toString()", 0, 'unknown function "toString"'],
    ["hasOwnProperty('x')", 0, 'unknown function "hasOwnProperty"'],
    ["#ai.constructor()", 4, 'unknown method "#ai.constructor"'],
    ["#ai.__proto__()", 4, 'unknown method "#ai.__proto__"'],
    ["#ownership.isOwner.call()", 11, "#ownership.isOwner must be called with parentheses"],
    ["#this", 0, 'unknown variable "#this"'],
    ["#root.authentication", 0, 'unknown variable "#root"'],
    ["#ai", 3, "expected '.' after '#ai'"],
    ["#constructor.x()", 0, 'unknown variable "#constructor"'],
    ["authentication", 0, "'authentication' may only be an argument of #ownership.isOwner"],
    ["returnObject", 0, "'returnObject' may only be an argument of #ownership.isOwner"],
    ["hasRole(authentication)", 8, "argument 1 of hasRole: expected a quoted string"],
    ["hasPermission(returnObject, 'read')", 14, "argument 1 of hasPermission: expected a quoted string"],
    ["#ownership.isOwner(authentication, #this)", 35, "variables are not allowed as arguments"],
    ["#ownership.isOwner(authentication.name, returnObject)", 33, "expected ',' or ')', found \".\""],
    ["principal.username == 'x'", 0, 'unknown function "principal"'],
    ["isAuthenticated() = true", 18, "'=' is not allowed"],
    ["x = 1", 0, 'unknown function "x"'],
    ["permitAll == true", 10, "'=' is not allowed"],
    ["@bean.check(authentication)", 0, "bean references ('@') are not allowed"],
    ["hasRole(@x)", 8, "bean references ('@') are not allowed"],
    ["hasRole('A').length", 12, "property access and method calls are not allowed"],
    ["isAuthenticated().toString()", 17, "property access and method calls are not allowed"],
    ["#ai.isAllowed().constructor", 15, "property access and method calls are not allowed"],
    ["permitAll ? denyAll : permitAll", 10, "unexpected character '?'"],
    ["hasRole('A')[0]", 12, "unexpected character '['"],
    ["{}", 0, "unexpected character '{'"],
    ["`x`", 0, "unexpected character '`'"],
    ["permitAll;denyAll", 9, "unexpected character ';'"],
    ["hasRole('A')\u0000", 12, "unexpected character U+0000"],
    ["permitAll\u200bor denyAll", 9, "unexpected character U+200B"],
    ["permitAll\u00a0or denyAll", 9, "unexpected character U+00A0"],
    ["\u202epermitAll", 0, "unexpected character U+202E"],
    ["pérmitAll", 1, "unexpected character U+00E9"],
    ["hasR\u043ele('A')", 4, "unexpected character U+043E"],
    ["ｐermitAll", 0, "unexpected character U+FF50"],
    ["permitAll or 😀", 13, "unexpected character U+1F600"],
    ["\ud800", 0, "unexpected character U+D800"],
    ["hasRole('A') or \\u0061", 16, "unexpected character '\\'"],
    ["-1", 0, "unexpected character '-'"],
    ["hasRole('a' + 'b')", 12, "unexpected character '+'"],
  ])("%j → %i: %s", (source, position, reason) => {
    const failure = rejection(source);
    expect(failure.position).toBe(position);
    expect(failure.reason).toContain(reason);
  });

  it("refuses input longer than the length cap, before reading it", () => {
    const huge = `hasRole('${"A".repeat(1_000_000)}')`;
    const started = performance.now();
    expect(rejection(huge)).toMatchObject({
      position: MAX_EXPRESSION_LENGTH,
      reason: `expression longer than ${MAX_EXPRESSION_LENGTH} characters`,
    });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("accepts an expression of exactly the maximum length", () => {
    const text = `hasRole('${"A".repeat(MAX_EXPRESSION_LENGTH - 11)}')`;
    expect(text).toHaveLength(MAX_EXPRESSION_LENGTH);
    expect(parseExpression(text).kind).toBe("call");
  });

  it("cuts the expression in the error details of an over-long input", () => {
    try {
      parseExpression("(".repeat(100_000));
    } catch (error) {
      const details = isPlatformError(error) ? (error.details as { expression: string }) : { expression: "" };
      expect(details.expression.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH + 1);
      return;
    }
    expect.unreachable();
  });

  it("caps nesting: parentheses and negations", () => {
    const ok = `${"(".repeat(MAX_NESTING_DEPTH)}permitAll${")".repeat(MAX_NESTING_DEPTH)}`;
    expect(parseExpression(ok).kind).toBe("call");
    const deep = `${"(".repeat(MAX_NESTING_DEPTH + 1)}permitAll${")".repeat(MAX_NESTING_DEPTH + 1)}`;
    expect(rejection(deep)).toMatchObject({
      position: MAX_NESTING_DEPTH,
      reason: `nesting deeper than ${MAX_NESTING_DEPTH}`,
    });
    expect(rejection(`${"!".repeat(4000)}permitAll`).position).toBe(MAX_NESTING_DEPTH);
    expect(rejection(`${"not ".repeat(1000)}permitAll`).position).toBe(MAX_NESTING_DEPTH * 4);
    expect(rejection(`${"(!".repeat(40)}permitAll${")".repeat(40)}`).reason).toContain("nesting deeper");
    expect(rejection("(".repeat(MAX_EXPRESSION_LENGTH)).reason).toContain("nesting deeper");
  });

  it("parses long flat operator chains without deep recursion", () => {
    const chain = Array.from({ length: 300 }, () => "denyAll").join(" or ");
    expect(chain.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
    const node = parseExpression(chain);
    expect(node.kind === "or" && node.operands).toHaveLength(300);
  });

  it("caps the argument count", () => {
    const args = (n: number) => Array.from({ length: n }, (_, i) => `'R${i}'`).join(",");
    expect(parseExpression(`hasAnyRole(${args(MAX_ARGUMENTS)})`).kind).toBe("call");
    const source = `hasAnyRole(${args(MAX_ARGUMENTS + 1)})`;
    expect(rejection(source)).toMatchObject({
      position: source.lastIndexOf("'R"),
      reason: `too many arguments: at most ${MAX_ARGUMENTS}`,
    });
  });

  it("never throws anything but POLICY_EXPRESSION_INVALID on random input, and never hangs", () => {
    const alphabet = [
      ..."()!&|,.#'@=  abcdeorndtAIT_019",
      "or",
      "and",
      "not",
      "hasRole",
      "#ai.",
      "permitAll",
      "'x'",
    ];
    let seed = 0x9e3779b9;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    const started = performance.now();
    for (let round = 0; round < 5000; round++) {
      let source = "";
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) source += alphabet[Math.floor(random() * alphabet.length)];
      try {
        parseExpression(source);
      } catch (error) {
        expect(isPlatformError(error) && error.code).toBe("POLICY_EXPRESSION_INVALID");
      }
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("rejects non-string input as invalid expression", () => {
    expect(rejection(42 as unknown as string).reason).toBe("expression must be a string");
    expect(new ExpressionCompiler().validate(null as unknown as string)).toEqual({
      ok: false,
      position: 0,
      reason: "expression must be a string",
    });
  });
});
