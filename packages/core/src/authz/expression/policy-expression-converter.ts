import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { Policy, PolicyEffect, TargetType } from "../policy/policy.js";
import type { ExpressionNode } from "./expression-node.js";
import { parseExpression } from "./expression-parser.js";
import { printExpression, quoteString } from "./expression-printer.js";
import { ROOT_FUNCTION_NAMES } from "./function-catalog.js";
import { stripHasPermission } from "./has-permission-stripper.js";

/** A policy's condition before its effect is applied: the PDP decides how DENY uses it. */
export interface ConvertedCondition {
  /** Holds when the policy applies (`permitAll` with no conditions, `denyAll` when all were stripped). */
  readonly condition: string;
  readonly effect: PolicyEffect;
}

/** The part of a policy the converter reads. */
export type ConvertiblePolicy = Pick<Policy, "effect" | "rules">;

/** An authority written bare as a whole condition (`ROLE_ADMIN`, `SCOPE_users:read`, `doc.read`). */
const BARE_AUTHORITY = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const KEYWORDS: ReadonlySet<string> = new Set(["and", "or", "not", "true", "false"]);

/**
 * True when a whole condition is a bare authority word: letters, digits, `_ . : -`, starting with a
 * letter or `_`, and not a keyword (any case), a function name of the language, `authentication` or
 * `returnObject` (`permitAll` stays permitAll; `isAuthenticated` stays an error, not an authority).
 */
export function isBareAuthority(text: string): boolean {
  return (
    BARE_AUTHORITY.test(text) &&
    !KEYWORDS.has(text.toLowerCase()) &&
    !ROOT_FUNCTION_NAMES.has(text) &&
    text !== "authentication" &&
    text !== "returnObject"
  );
}

interface Item {
  /** The condition as an expression: the author's text, or the canonical text after stripping. */
  readonly text: string;
  /** Set when the condition only asks for authorities (bare word, hasAuthority, hasAnyAuthority). */
  readonly authorities: readonly string[] | undefined;
}

function plainAuthorities(node: ExpressionNode): string[] | undefined {
  if (node.kind !== "call" || node.receiver !== undefined) return undefined;
  if (node.name !== "hasAuthority" && node.name !== "hasAnyAuthority") return undefined;
  return node.args.map((arg) => (arg.kind === "string" ? arg.value : ""));
}

/** One condition as an item, or undefined when stripping hasPermission left nothing. */
function toItem(expression: string, targetType: TargetType): Item | undefined {
  const text = expression.trim();
  if (isBareAuthority(text)) return { text: `hasAuthority(${quoteString(text)})`, authorities: [text] };
  const parsed = parseExpression(text);
  const node = targetType === "URL" ? stripHasPermission(parsed) : parsed;
  if (node === undefined) return undefined;
  return { text: node === parsed ? text : printExpression(node), authorities: plainAuthorities(node) };
}

function anyAuthorityText(authorities: readonly string[]): string {
  const unique = [...new Set(authorities)];
  const name = unique.length === 1 ? "hasAuthority" : "hasAnyAuthority";
  return `${name}(${unique.map(quoteString).join(", ")})`;
}

/**
 * The un-negated condition of a policy (docs/authorization.md, "Conditions", says the same in short).
 * Conditions of all rules are gathered in rule order, then:
 * - no conditions → `permitAll` (the policy always applies);
 * - URL targets: `hasPermission(…)` is stripped (see has-permission-stripper.ts); a condition left
 *   empty is dropped, and when every condition was dropped → `denyAll` (the policy never applies);
 * - one condition → the expression itself, a bare authority `ROLE_X` → `hasAuthority('ROLE_X')`;
 * - several conditions that only ask for authorities (bare words, hasAuthority, hasAnyAuthority) →
 *   one `hasAnyAuthority('A', 'B', 'C')`, duplicates dropped (`hasAuthority` when one remains);
 * - several mixed conditions → `(a) or (b) or (c)` (bare words as `hasAuthority('X')`).
 * Every condition must be a valid expression (a blank one is not): otherwise POLICY_EXPRESSION_INVALID
 * with `rule` and `condition` (0-based index in the rule) added to the details. Since each condition
 * parses on its own, wrapping it in parentheses cannot change its meaning or let it escape.
 */
export function convertCondition(policy: ConvertiblePolicy, targetType: TargetType): ConvertedCondition {
  const items: Item[] = [];
  let count = 0;
  for (const rule of policy.rules) {
    rule.conditions.forEach((condition, index) => {
      count++;
      try {
        const item = toItem(condition.expression, targetType);
        if (item !== undefined) items.push(item);
      } catch (error) {
        if (!isPlatformError(error)) throw error;
        throw new PlatformError(error.code, error.message, {
          cause: error,
          details: { ...error.details, rule: rule.name, condition: index },
        });
      }
    });
  }
  const effect = policy.effect;
  if (count === 0) return { condition: "permitAll", effect };
  if (items.length === 0) return { condition: "denyAll", effect };
  if (items.length === 1) return { condition: (items[0] as Item).text, effect };
  if (items.every((item) => item.authorities !== undefined)) {
    return { condition: anyAuthorityText(items.flatMap((item) => item.authorities ?? [])), effect };
  }
  return { condition: items.map((item) => `(${item.text})`).join(" or "), effect };
}

/**
 * The policy as one expression for FIRST_APPLICABLE evaluation: the condition for ALLOW, `!(condition)`
 * for DENY, except that a DENY of `permitAll` is `denyAll` and a DENY of `denyAll` is `permitAll`
 * (so DENY without conditions is `denyAll`, and a URL DENY whose conditions were all stripped is `permitAll`).
 */
export function policyExpression(policy: ConvertiblePolicy, targetType: TargetType): string {
  const { condition, effect } = convertCondition(policy, targetType);
  if (effect === "ALLOW") return condition;
  if (condition === "permitAll") return "denyAll";
  if (condition === "denyAll") return "permitAll";
  return `!(${condition})`;
}

/** Turns a policy's rules into one expression string, the form the PDP compiles and explains. */
export class PolicyExpressionConverter {
  /** The whole policy as one expression (effect applied); see policyExpression. */
  convert(policy: ConvertiblePolicy, targetType: TargetType): string {
    return policyExpression(policy, targetType);
  }

  /** The un-negated condition and the effect; see convertCondition. */
  convertCondition(policy: ConvertiblePolicy, targetType: TargetType): ConvertedCondition {
    return convertCondition(policy, targetType);
  }
}
