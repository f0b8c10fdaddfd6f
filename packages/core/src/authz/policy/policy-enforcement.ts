import type { Policy, PolicyRule, PolicyTarget } from "./policy.js";

/** The fields that decide what a policy enforces; a change to them needs a fresh approval of an AI policy. */
export type EnforcedFields = Pick<Policy, "effect" | "priority" | "targets" | "rules">;

/**
 * True when `after` enforces something other than `before`: another effect, priority (it decides
 * which policy applies first), target list or conditions. Names (of the policy or its rules),
 * description and AI provenance do not count.
 */
export function enforcementChanged(before: EnforcedFields, after: EnforcedFields): boolean {
  return (
    before.effect !== after.effect ||
    before.priority !== after.priority ||
    !sameList(before.targets, after.targets, sameTarget) ||
    !sameList(before.rules, after.rules, sameRule)
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x, i) => same(x, b[i]!));
}

function sameTarget(a: PolicyTarget, b: PolicyTarget): boolean {
  return (
    a.targetType === b.targetType &&
    a.targetIdentifier === b.targetIdentifier &&
    a.httpMethod === b.httpMethod &&
    a.targetOrder === b.targetOrder &&
    a.sourceType === b.sourceType
  );
}

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  // A rule's name is a label; only its conditions are enforced.
  return sameList(a.conditions, b.conditions, (x, y) => x.expression === y.expression);
}
