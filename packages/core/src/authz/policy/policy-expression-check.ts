import { PlatformError } from "../../kernel/platform-error.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import {
  isBareAuthority,
  type PolicyExpressionConverter,
} from "../expression/policy-expression-converter.js";
import { type Policy, TARGET_TYPES } from "./policy.js";

/** What the check needs of the expression module: validation and conversion, nothing else. */
export interface PolicyExpressionTools {
  compiler: Pick<ExpressionCompiler, "validate">;
  converter: Pick<PolicyExpressionConverter, "convert">;
}

/**
 * Refuses a policy the decision point could not compile: every condition expression must validate
 * (a bare authority such as `ROLE_ADMIN` is valid: the converter turns it into `hasAuthority`), and
 * so must the expression the converter builds for each target type the policy has. Throws
 * POLICY_EXPRESSION_INVALID with `details { rule, ruleIndex, condition, expression, position, reason }`:
 * `rule` is the rule's name and `condition` the 0-based index in it, as the converter reports them;
 * for a converted expression `rule`, `ruleIndex` and `condition` are null and `targetType` names it.
 */
export function checkPolicyExpressions(
  policy: Pick<Policy, "effect" | "rules" | "targets">,
  tools: PolicyExpressionTools,
): void {
  policy.rules.forEach((rule, r) => {
    rule.conditions.forEach((condition, c) => {
      const text = condition.expression.trim();
      if (isBareAuthority(text)) return;
      const result = tools.compiler.validate(text);
      if (!result.ok) {
        throw new PlatformError(
          "POLICY_EXPRESSION_INVALID",
          `Condition ${c + 1} of rule ${r + 1} is not a valid expression: ${result.reason}`,
          {
            details: {
              rule: rule.name,
              ruleIndex: r,
              condition: c,
              expression: condition.expression,
              position: result.position,
              reason: result.reason,
            },
          },
        );
      }
    });
  });
  for (const targetType of TARGET_TYPES) {
    if (!policy.targets.some((t) => t.targetType === targetType)) continue;
    const expression = tools.converter.convert(policy, targetType);
    const result = tools.compiler.validate(expression);
    if (!result.ok) {
      throw new PlatformError(
        "POLICY_EXPRESSION_INVALID",
        `The policy's ${targetType} expression is not valid: ${result.reason}`,
        {
          details: {
            rule: null,
            ruleIndex: null,
            condition: null,
            targetType,
            expression,
            position: result.position,
            reason: result.reason,
          },
        },
      );
    }
  }
}
