import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { CompiledExpression, ExpressionEvaluator } from "./compiled-expression.js";
import { POLICY_EXPRESSION_INVALID } from "./expression-error.js";
import type { ExpressionNode } from "./expression-node.js";
import { parseExpression } from "./expression-parser.js";
import { findFunction } from "./function-catalog.js";

/** Whether an expression is valid, and if not where and why. */
export type ExpressionValidation = { ok: true } | { ok: false; position: number; reason: string };

/** Options of an ExpressionCompiler. */
export interface ExpressionCompilerOptions {
  /** Compiled expressions kept, least recently used dropped first; 0 disables the cache. Default 10,000. */
  cacheSize?: number;
}

const DEFAULT_CACHE_SIZE = 10_000;

interface Flags {
  usesZeroTrust: boolean;
  usesMethodContext: boolean;
}

function compileNode(node: ExpressionNode, flags: Flags): ExpressionEvaluator {
  switch (node.kind) {
    case "boolean": {
      const value = node.value;
      return () => value;
    }
    case "not": {
      const operand = compileNode(node.operand, flags);
      return (ctx) => !operand(ctx);
    }
    case "and":
    case "or": {
      // A `not` operand is folded into the combinator (no closure of its own per evaluation).
      const operands = node.operands.map((operand) =>
        compileNode(operand.kind === "not" ? operand.operand : operand, flags),
      );
      const negated = node.operands.map((operand) => operand.kind === "not");
      return node.kind === "and" ? all(operands, negated) : any(operands, negated);
    }
    case "call": {
      const definition = findFunction(node.receiver, node.name);
      // Unreachable for a tree from parseExpression, which resolved every call.
      if (definition === undefined) throw new Error(`unknown function ${node.name}`);
      if (definition.usesZeroTrust) flags.usesZeroTrust = true;
      if (definition.usesMethodContext) flags.usesMethodContext = true;
      return definition.build(node.args);
    }
  }
}

/**
 * `a and b and ...`, where `negated[i]` says operand `i` is a `not` folded in: it holds when its
 * evaluator answers false. Two operands (the common case) get a closure of their own per shape.
 */
function all(operands: readonly ExpressionEvaluator[], negated: readonly boolean[]): ExpressionEvaluator {
  if (operands.length === 2) {
    const [a, b] = operands as [ExpressionEvaluator, ExpressionEvaluator];
    const [na, nb] = negated as [boolean, boolean];
    if (!na && !nb) return (ctx) => a(ctx) && b(ctx);
    if (!na) return (ctx) => a(ctx) && !b(ctx);
    if (!nb) return (ctx) => !a(ctx) && b(ctx);
    return (ctx) => !a(ctx) && !b(ctx);
  }
  return (ctx) => {
    for (let i = 0; i < operands.length; i++)
      if (!!(operands[i] as ExpressionEvaluator)(ctx) === negated[i]) return false;
    return true;
  };
}

/** `a or b or ...`, with `not` operands folded in as for `all`. */
function any(operands: readonly ExpressionEvaluator[], negated: readonly boolean[]): ExpressionEvaluator {
  if (operands.length === 2) {
    const [a, b] = operands as [ExpressionEvaluator, ExpressionEvaluator];
    const [na, nb] = negated as [boolean, boolean];
    if (!na && !nb) return (ctx) => a(ctx) || b(ctx);
    if (!na) return (ctx) => a(ctx) || !b(ctx);
    if (!nb) return (ctx) => !a(ctx) || b(ctx);
    return (ctx) => !a(ctx) || !b(ctx);
  }
  return (ctx) => {
    for (let i = 0; i < operands.length; i++)
      if (!!(operands[i] as ExpressionEvaluator)(ctx) !== negated[i]) return true;
    return false;
  };
}

/**
 * Compiles an expression without caching: parse and validate once, then build a tree of closures over
 * the EvaluationContext only (no eval, no `new Function`, no property lookup by expression text).
 * Throws `POLICY_EXPRESSION_INVALID` with `{ expression, position, reason }` details.
 */
export function compileExpression(source: string): CompiledExpression {
  const flags: Flags = { usesZeroTrust: false, usesMethodContext: false };
  const evaluate = compileNode(parseExpression(source), flags);
  return Object.freeze({ source, evaluate, ...flags });
}

/**
 * Compiles policy expressions and keeps them by source text in a bounded LRU cache, so a policy
 * reload or many policies sharing a condition compile each text once. Invalid texts are not cached.
 */
export class ExpressionCompiler {
  private readonly cache = new Map<string, CompiledExpression>();
  private readonly cacheSize: number;

  constructor(options: ExpressionCompilerOptions = {}) {
    const size = options.cacheSize ?? DEFAULT_CACHE_SIZE;
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "cacheSize must be a non-negative integer", {
        details: { key: "cacheSize", value: size },
      });
    }
    this.cacheSize = size;
  }

  /** The compiled form of `source`; the same object for the same text while it stays cached. */
  compile(source: string): CompiledExpression {
    const hit = this.cache.get(source);
    if (hit !== undefined) {
      this.cache.delete(source);
      this.cache.set(source, hit);
      return hit;
    }
    const compiled = compileExpression(source);
    if (this.cacheSize > 0) {
      if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(source, compiled);
    }
    return compiled;
  }

  /** Checks an expression without compiling it into the cache (for authoring forms and the admin API). */
  validate(source: string): ExpressionValidation {
    try {
      parseExpression(source);
      return { ok: true };
    } catch (error) {
      if (isPlatformError(error) && error.code === POLICY_EXPRESSION_INVALID) {
        const { position, reason } = error.details as { position: number; reason: string };
        return { ok: false, position, reason };
      }
      throw error;
    }
  }

  /** How many compiled expressions are cached now. */
  get size(): number {
    return this.cache.size;
  }
}
