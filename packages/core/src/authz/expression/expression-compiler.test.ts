import { describe, expect, it, vi } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { compileExpression, ExpressionCompiler } from "./expression-compiler.js";
import { testContext, testUser } from "./test-context.js";

const anonymous = testContext();
const user = testContext({ authentication: testUser("ROLE_USER") });

describe("compileExpression: operators", () => {
  it.each([
    ["true", true],
    ["false", false],
    ["!true", false],
    ["not false", true],
    ["!!true", true],
    ["true and true", true],
    ["true and false", false],
    ["false and true", false],
    ["true && true && false", false],
    ["true and true and true", true],
    ["false or false", false],
    ["false or true", true],
    ["true or false", true],
    ["false || false || true", true],
    ["false or false or false", false],
    // precedence: and binds tighter than or, ! tighter than and
    ["true or false and false", true],
    ["(true or false) and false", false],
    ["false and false or true", true],
    ["false and (false or true)", false],
    ["!false and false", false],
    ["!(false and false)", true],
    ["not true or true", true],
    ["not (true or true)", false],
  ])("%s is %s", (source, expected) => {
    expect(compileExpression(source).evaluate(anonymous)).toBe(expected);
  });

  it("evaluates left to right and stops early", () => {
    const hasPermission = vi.fn(() => true);
    const ctx = testContext({ hasPermission });
    expect(compileExpression("false and hasPermission('doc', 'read')").evaluate(ctx)).toBe(false);
    expect(compileExpression("true or hasPermission('doc', 'read')").evaluate(ctx)).toBe(true);
    expect(compileExpression("false and true and hasPermission('doc', 'read')").evaluate(ctx)).toBe(false);
    expect(hasPermission).not.toHaveBeenCalled();
    expect(compileExpression("true and hasPermission('doc', 'read')").evaluate(ctx)).toBe(true);
    expect(hasPermission).toHaveBeenCalledWith("doc", "read");
  });

  it("compiles the common shapes and decides them", () => {
    const blocked = testContext({ authentication: testUser(), zeroTrustAction: "BLOCK" });
    const guard = compileExpression("isAuthenticated() and !#ai.isBlocked()");
    expect(guard.evaluate(user)).toBe(true);
    expect(guard.evaluate(blocked)).toBe(false);
    expect(guard.evaluate(anonymous)).toBe(false);
  });

  it("reports which contexts an expression needs", () => {
    const flags = (source: string) => {
      const { usesZeroTrust, usesMethodContext } = compileExpression(source);
      return { usesZeroTrust, usesMethodContext };
    };
    expect(flags("permitAll")).toEqual({ usesZeroTrust: false, usesMethodContext: false });
    expect(flags("isAllowed()")).toEqual({ usesZeroTrust: true, usesMethodContext: false });
    expect(flags("hasRole('A') or !#ai.isBlocked()")).toEqual({
      usesZeroTrust: true,
      usesMethodContext: false,
    });
    expect(flags("hasPermission('doc', 'read')")).toEqual({ usesZeroTrust: false, usesMethodContext: true });
    expect(flags("#ownership.isOwner(authentication, returnObject) and needsChallenge()")).toEqual({
      usesZeroTrust: true,
      usesMethodContext: true,
    });
  });

  it("returns a frozen object with the source as given", () => {
    const compiled = compileExpression("  permitAll ");
    expect(compiled.source).toBe("  permitAll ");
    expect(Object.isFrozen(compiled)).toBe(true);
  });

  it("throws POLICY_EXPRESSION_INVALID with details", () => {
    try {
      compileExpression("hasRole('A') and");
      expect.unreachable();
    } catch (error) {
      expect(isPlatformError(error) && error.code).toBe("POLICY_EXPRESSION_INVALID");
      expect(isPlatformError(error) && error.details).toMatchObject({
        expression: "hasRole('A') and",
        position: 16,
      });
    }
  });
});

describe("ExpressionCompiler", () => {
  it("returns the same compiled object for the same text", () => {
    const compiler = new ExpressionCompiler();
    const first = compiler.compile("hasRole('A')");
    expect(compiler.compile("hasRole('A')")).toBe(first);
    expect(compiler.compile("hasRole( 'A' )")).not.toBe(first);
    expect(compiler.size).toBe(2);
  });

  it("compileExpression does not cache", () => {
    expect(compileExpression("permitAll")).not.toBe(compileExpression("permitAll"));
  });

  it("drops the least recently used entry when full", () => {
    const compiler = new ExpressionCompiler({ cacheSize: 2 });
    const a = compiler.compile("hasRole('A')");
    const b = compiler.compile("hasRole('B')");
    expect(compiler.compile("hasRole('A')")).toBe(a); // A is now the most recent
    compiler.compile("hasRole('C')"); // evicts B
    expect(compiler.size).toBe(2);
    expect(compiler.compile("hasRole('A')")).toBe(a);
    expect(compiler.compile("hasRole('B')")).not.toBe(b);
  });

  it("caches nothing with cacheSize 0", () => {
    const compiler = new ExpressionCompiler({ cacheSize: 0 });
    expect(compiler.compile("permitAll")).not.toBe(compiler.compile("permitAll"));
    expect(compiler.size).toBe(0);
  });

  it("refuses a bad cache size", () => {
    expect(() => new ExpressionCompiler({ cacheSize: -1 })).toThrow(/cacheSize/);
    expect(() => new ExpressionCompiler({ cacheSize: 1.5 })).toThrow(/cacheSize/);
  });

  it("does not cache invalid expressions", () => {
    const compiler = new ExpressionCompiler();
    expect(() => compiler.compile("hasRole(")).toThrow(/Invalid policy expression/);
    expect(() => compiler.compile("hasRole(")).toThrow(/Invalid policy expression/);
    expect(compiler.size).toBe(0);
  });

  it("validates without caching", () => {
    const compiler = new ExpressionCompiler();
    expect(compiler.validate("isAuthenticated() and hasIpAddress('10.0.0.0/8')")).toEqual({ ok: true });
    expect(compiler.validate("hasIpAddress('10.0.0.0/40')")).toEqual({
      ok: false,
      position: 13,
      reason:
        'argument 1 of hasIpAddress: invalid address or CIDR "10.0.0.0/40": invalid prefix length: expected 0..32',
    });
    expect(compiler.validate("hasRole('A') xor hasRole('B')")).toEqual({
      ok: false,
      position: 13,
      reason: 'unexpected "xor"',
    });
    expect(compiler.size).toBe(0);
  });
});

describe("compileExpression: `not` operands folded into and/or", () => {
  // Every shape of two and three operands, each negated or not, over every truth assignment,
  // against the same formula computed here.
  const shapes: { source: string; expected: boolean }[] = [];
  for (const op of ["and", "or"] as const) {
    for (let size = 2; size <= 3; size++) {
      for (let mask = 0; mask < 1 << size; mask++) {
        for (let values = 0; values < 1 << size; values++) {
          const bits = Array.from({ length: size }, (_, i) => ((values >> i) & 1) === 1);
          const negated = Array.from({ length: size }, (_, i) => ((mask >> i) & 1) === 1);
          const effective = bits.map((b, i) => (negated[i] ? !b : b));
          shapes.push({
            source: bits.map((b, i) => `${negated[i] ? "not " : ""}${b}`).join(` ${op} `),
            expected: op === "and" ? effective.every(Boolean) : effective.some(Boolean),
          });
        }
      }
    }
  }
  it.each(shapes)("$source", ({ source, expected }) => {
    expect(compileExpression(source).evaluate(anonymous)).toBe(expected);
  });
});

describe("compileExpression: `not` anywhere, against what the expression means", () => {
  // Random trees (seeded) of true/false/hasRole, `not`/`!` (doubled too), n-ary and/or in both
  // spellings, parenthesised: the compiled closure must answer what the tree means.
  type Tree =
    | boolean
    | "role"
    | { not: Tree; bang: boolean }
    | { op: "and" | "or"; items: Tree[]; sym: boolean };
  let seed = 26;
  // mulberry32: a small seeded generator whose low bits are as random as its high ones.
  const rnd = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const grow = (depth: number): Tree => {
    const pick = depth === 0 ? rnd(3) : rnd(6);
    if (pick === 0) return true;
    if (pick === 1) return false;
    if (pick === 2) return "role";
    if (pick === 3) return { not: grow(depth - 1), bang: rnd(2) === 0 };
    const items = Array.from({ length: 2 + rnd(3) }, () => grow(depth - 1));
    return { op: rnd(2) === 0 ? "and" : "or", items, sym: rnd(2) === 0 };
  };
  const text = (t: Tree): string => {
    if (typeof t === "boolean") return String(t);
    if (t === "role") return "hasRole('USER')";
    if ("not" in t) return `${t.bang ? "!" : "not "}${text(t.not)}`;
    const joiner = t.op === "and" ? (t.sym ? " && " : " and ") : t.sym ? " || " : " or ";
    return `(${t.items.map(text).join(joiner)})`;
  };
  const meaning = (t: Tree, role: boolean): boolean => {
    if (typeof t === "boolean") return t;
    if (t === "role") return role;
    if ("not" in t) return !meaning(t.not, role);
    return t.op === "and" ? t.items.every((i) => meaning(i, role)) : t.items.some((i) => meaning(i, role));
  };
  it("agrees on 1,500 random expressions, for a caller with and without the role", () => {
    for (let n = 0; n < 1500; n++) {
      const tree = grow(4);
      const source = text(tree);
      const compiled = compileExpression(source);
      expect(compiled.evaluate(user), source).toBe(meaning(tree, true));
      expect(compiled.evaluate(anonymous), source).toBe(meaning(tree, false));
    }
  });
});
