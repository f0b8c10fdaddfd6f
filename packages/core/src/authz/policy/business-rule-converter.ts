import { PlatformError } from "../../kernel/platform-error.js";
import { parseIpRange } from "../../web/ip-range.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import { quoteString } from "../expression/expression-printer.js";
import { findFunction } from "../expression/function-catalog.js";
import { isBareAuthority } from "../expression/policy-expression-converter.js";
import type { PolicyTarget } from "./policy.js";
import { type BusinessRule, BusinessRuleSchema } from "./business-rule-schema.js";
import type { PolicyCreateInput } from "./policy-schema.js";

/** What the conversion needs: the platform's time zone and the expression check. */
export interface BusinessRuleConversionOptions {
  /** The zone policy times are evaluated in (`platform.policy.time-zone`, resolved). */
  timeZone: string;
  compiler: Pick<ExpressionCompiler, "validate">;
}

/** One part of the converted condition, by the business-rule field it came from. */
export interface BusinessRuleClause {
  /** `roles+permissions`, `timeWindows`, `ipRanges`, `aiConditions` or `customConditionSpel`. */
  readonly field: string;
  readonly expression: string;
}

/** A business rule as a policy: the create input (MANUAL) and the clauses of its one condition. */
export interface ConvertedBusinessRule {
  readonly mode: BusinessRule["mode"];
  readonly policy: PolicyCreateInput;
  /** Joined with `and` into the policy's single condition (none: the policy always applies). */
  readonly clauses: readonly BusinessRuleClause[];
}

// Client-chosen keys are echoed in issue paths: a hostile body must not get a huge answer back.
const MAX_ISSUES = 20;
const MAX_ISSUE_TEXT = 300;

/**
 * Turns a business rule into a MANUAL policy: its resources or URL pattern become targets, and
 * its conditions one expression in which every given part must hold (`and`): the subject (any of
 * the roles or any of the permissions), any of the time windows (`dayOfWeekIn`, `timeBetween`), any
 * of the IP ranges (`hasIpAddress`), any of the `#ai.*` outcomes, and the custom expression. Each
 * part is checked on its own first, so an error names its field: VALIDATION_FAILED with
 * `details.issues[].path`, or POLICY_EXPRESSION_INVALID with `details.field`. Pure.
 */
export function convertBusinessRule(input: unknown, o: BusinessRuleConversionOptions): ConvertedBusinessRule {
  const rule = parseRule(input);
  const clauses = [
    subjectClause(rule),
    timeClause(rule, o.timeZone),
    ipClause(rule),
    aiClause(rule, o),
    customClause(rule, o),
  ].filter((c): c is BusinessRuleClause => c !== undefined);
  const expression =
    clauses.length === 1 ? clauses[0]!.expression : clauses.map((c) => `(${c.expression})`).join(" and ");
  const policy: PolicyCreateInput = {
    name: rule.name,
    description: rule.description ?? "",
    effect: rule.effect,
    ...(rule.priority === undefined ? {} : { priority: rule.priority }),
    targets: targetsOf(rule),
    rules: clauses.length === 0 ? [] : [{ name: rule.name, conditions: [{ expression }] }],
    source: "MANUAL",
  };
  return { mode: rule.mode, policy, clauses };
}

function parseRule(input: unknown): BusinessRule {
  const parsed = BusinessRuleSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map(String).join(".").slice(0, MAX_ISSUE_TEXT),
    message: issue.message.slice(0, MAX_ISSUE_TEXT),
  }));
  throw new PlatformError("VALIDATION_FAILED", "The business rule is invalid", { details: { issues } });
}

function targetsOf(rule: BusinessRule): Omit<PolicyTarget, "targetOrder">[] {
  const fromResources = (rule.resources ?? []).map((r) => ({
    targetType: r.resourceType,
    targetIdentifier: r.resourceIdentifier,
    httpMethod: r.resourceType === "URL" ? (r.httpMethod ?? "ANY") : "ANY",
    sourceType: "RESOURCE" as const,
  }));
  const fromPattern =
    rule.urlPattern === undefined
      ? []
      : [
          {
            targetType: "URL" as const,
            targetIdentifier: rule.urlPattern,
            httpMethod: rule.httpMethod ?? "ANY",
            sourceType: "MANUAL" as const,
          },
        ];
  return [...fromResources, ...fromPattern];
}

const call = (name: string, args: readonly string[]) => `${name}(${args.map(quoteString).join(", ")})`;
const anyOf = (parts: readonly string[]) =>
  parts.length === 1 ? parts[0]! : parts.map((p) => (/ (and|or) /.test(p) ? `(${p})` : p)).join(" or ");

function subjectClause(rule: BusinessRule): BusinessRuleClause | undefined {
  const parts: string[] = [];
  const roles = unique(rule.roles ?? []);
  const permissions = unique(rule.permissions ?? []);
  if (roles.length > 0) parts.push(call(roles.length === 1 ? "hasRole" : "hasAnyRole", roles));
  if (permissions.length > 0) {
    parts.push(call(permissions.length === 1 ? "hasAuthority" : "hasAnyAuthority", permissions));
  }
  return parts.length === 0 ? undefined : { field: "roles+permissions", expression: anyOf(parts) };
}

function timeClause(rule: BusinessRule, timeZone: string): BusinessRuleClause | undefined {
  if (!rule.timeWindows) return undefined;
  const windows = rule.timeWindows.map((w, i) => {
    if (w.zone !== undefined && w.zone !== timeZone) {
      invalid(
        `timeWindows.${i}.zone`,
        `must be ${timeZone} (platform.policy.time-zone): policy times are evaluated in that zone`,
      );
    }
    const parts: string[] = [];
    if (w.days) parts.push(call("dayOfWeekIn", unique(w.days)));
    if (w.from !== undefined && w.to !== undefined) parts.push(call("timeBetween", [w.from, w.to]));
    return parts.join(" and ");
  });
  return { field: "timeWindows", expression: anyOf(windows) };
}

function ipClause(rule: BusinessRule): BusinessRuleClause | undefined {
  if (!rule.ipRanges) return undefined;
  const ranges = rule.ipRanges.map((range, i) => {
    const parsed = parseIpRange(range);
    if (typeof parsed === "string") invalid(`ipRanges.${i}`, `is not an IP address or CIDR range: ${parsed}`);
    return call("hasIpAddress", [range]);
  });
  return { field: "ipRanges", expression: anyOf(unique(ranges)) };
}

function aiClause(rule: BusinessRule, o: BusinessRuleConversionOptions): BusinessRuleClause | undefined {
  if (!rule.aiConditions) return undefined;
  const calls = rule.aiConditions.map((c, i) => {
    if (!/^[A-Za-z]+$/.test(c.function) || findFunction("ai", c.function) === undefined) {
      invalid(`aiConditions.${i}.function`, "is not an #ai function of the expression language");
    }
    const text = `#ai.${call(c.function, c.args ?? [])}`;
    checkExpression(text, `aiConditions.${i}`, o);
    return text;
  });
  return { field: "aiConditions", expression: anyOf(unique(calls)) };
}

function customClause(rule: BusinessRule, o: BusinessRuleConversionOptions): BusinessRuleClause | undefined {
  const text = rule.customConditionSpel?.trim();
  if (text === undefined) return undefined;
  if (text === "") invalid("customConditionSpel", "must not be blank");
  if (isBareAuthority(text))
    return { field: "customConditionSpel", expression: call("hasAuthority", [text]) };
  checkExpression(text, "customConditionSpel", o);
  return { field: "customConditionSpel", expression: text };
}

function checkExpression(text: string, field: string, o: BusinessRuleConversionOptions): void {
  const result = o.compiler.validate(text);
  if (result.ok) return;
  throw new PlatformError(
    "POLICY_EXPRESSION_INVALID",
    `${field} is not a valid expression: ${result.reason}`,
    {
      details: { field, expression: text, position: result.position, reason: result.reason },
    },
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function invalid(path: string, message: string): never {
  throw new PlatformError("VALIDATION_FAILED", `The business rule is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
