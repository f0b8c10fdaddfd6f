import type { Policy, PolicyRule, PolicyTarget } from "../authz/policy/policy.js";
import { POLICY_HTTP_METHODS } from "../authz/policy/policy.js";
import { invalid } from "./console-input.js";

/** The targets as the edit form's text: one per line, `URL <METHOD> <pattern>` or `METHOD <identifier>`. */
export function targetsToText(targets: readonly PolicyTarget[]): string {
  return [...targets]
    .sort((a, b) => a.targetOrder - b.targetOrder)
    .map((t) =>
      t.targetType === "URL" ? `URL ${t.httpMethod} ${t.targetIdentifier}` : `METHOD ${t.targetIdentifier}`,
    )
    .join("\n");
}

/** One target as typed in the form, before the policy schema judges it. */
export interface TargetInput {
  targetType: "URL" | "METHOD";
  targetIdentifier: string;
  httpMethod: string;
  sourceType: "RESOURCE" | "MANUAL";
}

/**
 * The form's targets text back as targets, in order. A target the policy already had keeps its
 * `sourceType` (a resource's target stays RESOURCE); a new one is MANUAL. The identifier and the
 * method are left for the policy schema to judge; only the line's shape is checked here.
 */
export function textToTargets(text: string, current: readonly PolicyTarget[]): TargetInput[] {
  const known = new Map(
    current.map((t) => [targetKey(t.targetType, t.httpMethod, t.targetIdentifier), t.sourceType]),
  );
  return lines(text).map(({ line, n }) => {
    const [type, ...rest] = line.split(/\s+/);
    // A method identifier may hold `, ` between parameter types (as the method scanner writes it):
    // the rest of the line is the identifier, which the policy schema then judges.
    if (type === "METHOD" && rest.length >= 1) {
      const id = line.slice(line.indexOf("METHOD") + "METHOD".length).trim();
      return {
        targetType: "METHOD",
        targetIdentifier: id,
        httpMethod: "ANY",
        sourceType: known.get(targetKey("METHOD", "ANY", id)) ?? "MANUAL",
      };
    }
    if (
      type === "URL" &&
      rest.length === 2 &&
      (POLICY_HTTP_METHODS as readonly string[]).includes(rest[0]!)
    ) {
      const [method, id] = rest as [string, string];
      return {
        targetType: "URL",
        targetIdentifier: id,
        httpMethod: method,
        sourceType: known.get(targetKey("URL", method, id)) ?? "MANUAL",
      };
    }
    throw invalid(
      `targets.${n}`,
      "must read 'URL <METHOD> <path pattern>' or 'METHOD <Class.method(types)>'",
    );
  });
}

/** The rules as the edit form's text: a `[rule name]` line, then one condition expression per line. */
export function rulesToText(rules: readonly PolicyRule[]): string {
  return rules.map((r) => [`[${r.name}]`, ...r.conditions.map((c) => c.expression)].join("\n")).join("\n\n");
}

/** True when the rules can be written as text (no expression or name spans lines). */
export function rulesFitText(policy: Pick<Policy, "rules">): boolean {
  return policy.rules.every(
    (r) => !/[\r\n]/.test(r.name) && r.conditions.every((c) => !/[\r\n]/.test(c.expression)),
  );
}

/** One rule as typed in the form, before the policy schema judges it. */
export interface RuleInput {
  name: string;
  conditions: { expression: string }[];
}

/** The form's rules text back as rules: each `[name]` line opens a rule, each other line is a condition. */
export function textToRules(text: string): RuleInput[] {
  const rules: RuleInput[] = [];
  for (const { line, n } of lines(text)) {
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      rules.push({ name: header[1]!, conditions: [] });
      continue;
    }
    const rule = rules[rules.length - 1];
    if (!rule) throw invalid(`rules.${n}`, "a condition must follow a '[rule name]' line");
    rule.conditions.push({ expression: line });
  }
  return rules;
}

// The non-blank lines, trimmed, with their 1-based line numbers.
function lines(text: string): { line: string; n: number }[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== "");
}

function targetKey(type: string, method: string, id: string): string {
  return `${type} ${method} ${id}`;
}
