import { isPlatformError } from "../../kernel/platform-error.js";
import type { CompiledExpression } from "../expression/compiled-expression.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { ExpressionNode } from "../expression/expression-node.js";
import { parseExpression } from "../expression/expression-parser.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { comparePolicies, isExecutable, type Policy, type PolicyEffect } from "../policy/policy.js";

/** A METHOD policy compiled for one method identifier. */
export interface CompiledMethodPolicy {
  readonly id: string;
  readonly name: string;
  readonly effect: PolicyEffect;
  /** The un-negated condition; undefined when it failed to compile (such a policy denies). */
  readonly condition: CompiledExpression | undefined;
  readonly expression: string;
  /**
   * The condition reads the returned value (`#ownership.isOwner(authentication, returnObject)`), so it
   * is decided after the call. `hasPermission` alone is not: it is decided before, like any other.
   */
  readonly readsReturnValue: boolean;
}

/** The executable METHOD policies by method identifier, each list in evaluation order. */
export class MethodPolicySet {
  private constructor(private readonly byIdentifier: ReadonlyMap<string, readonly CompiledMethodPolicy[]>) {}

  /** The empty set. */
  static empty(): MethodPolicySet {
    return new MethodPolicySet(new Map());
  }

  /** Compiles the executable METHOD policies of `all` (METHOD targets keep hasPermission). */
  static build(
    all: readonly Policy[],
    tools: { compiler: ExpressionCompiler; converter: PolicyExpressionConverter },
  ): MethodPolicySet {
    const map = new Map<string, CompiledMethodPolicy[]>();
    for (const policy of [...all].filter(isExecutable).sort(comparePolicies)) {
      const compiled = compile(policy, tools);
      const identifiers = new Set(
        policy.targets.filter((t) => t.targetType === "METHOD").map((t) => t.targetIdentifier),
      );
      for (const id of identifiers) {
        let list = map.get(id);
        if (!list) {
          list = [];
          map.set(id, list);
        }
        list.push(compiled);
      }
    }
    return new MethodPolicySet(map);
  }

  /** The policies of a method identifier, first to evaluate first (empty when none). */
  policiesOf(identifier: string): readonly CompiledMethodPolicy[] {
    return this.byIdentifier.get(identifier) ?? [];
  }
}

function compile(
  policy: Policy,
  tools: { compiler: ExpressionCompiler; converter: PolicyExpressionConverter },
): CompiledMethodPolicy {
  const base = { id: policy.id, name: policy.name, effect: policy.effect };
  try {
    const { condition } = tools.converter.convertCondition(policy, "METHOD");
    const compiled = tools.compiler.compile(condition);
    return {
      ...base,
      condition: compiled,
      expression: tools.converter.convert(policy, "METHOD"),
      readsReturnValue: compiled.usesMethodContext && readsReturnValue(parseExpression(condition)),
    };
  } catch (error) {
    return {
      ...base,
      condition: undefined,
      expression: isPlatformError(error) ? error.message : "(invalid)",
      readsReturnValue: false,
    };
  }
}

// Whether any call reads the returned value: #ownership functions, or a `returnObject` argument.
function readsReturnValue(node: ExpressionNode): boolean {
  switch (node.kind) {
    case "call":
      return (
        node.receiver === "ownership" ||
        node.args.some((a) => a.kind === "identifier" && a.name === "returnObject")
      );
    case "not":
      return readsReturnValue(node.operand);
    case "and":
    case "or":
      return node.operands.some(readsReturnValue);
    default:
      return false;
  }
}
