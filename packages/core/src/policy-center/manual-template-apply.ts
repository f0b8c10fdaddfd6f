import { POLICY_LIMITS } from "../authz/policy/policy-schema.js";
import { findConditionTemplate } from "./condition-templates.js";
import { type FormErrors, MANUAL_FORM_LIMITS, type ManualPolicyForm } from "./manual-policy-form.js";

/**
 * The picker's "add" button without script: builds the template's expression from its fields and
 * adds it to the chosen rule. Joined `and` (the default), it narrows the rule's last non-blank
 * condition: `(<that condition>) and (<template>)`; joined `or`, or into a rule without a condition,
 * it becomes a condition of its own (into the first blank one, else a new one). A rule index past
 * the last rule starts a new rule. A bad value, or a joined condition past the expression limit, is
 * an error on `tpl.<id>`, and the form is unchanged.
 */
export function applyTemplate(
  form: ManualPolicyForm,
  templateId: string,
): { form: ManualPolicyForm; errors: FormErrors } {
  const template = findConditionTemplate(templateId);
  if (!template) return { form, errors: { form: "Unknown condition template" } };
  const values: Record<string, string> = {};
  for (const p of template.params) values[p.name] = form.templateValues[`${template.id}.${p.name}`] ?? "";
  const built = template.build(values);
  if ("error" in built) return { form, errors: { [`tpl.${template.id}`]: built.error } };
  const wanted = /^\d{1,3}$/.test(form.templateRule) ? Number(form.templateRule) : 0;
  const rules = form.rules.map((r) => ({ name: r.name, conditions: [...r.conditions] }));
  const index = Math.min(wanted, rules.length);
  if (index === rules.length) {
    if (rules.length >= MANUAL_FORM_LIMITS.rules)
      return { form, errors: { [`tpl.${template.id}`]: "too many rules" } };
    rules.push({ name: "", conditions: [] });
  }
  const rule = rules[index]!;
  const last = rule.conditions.findLastIndex((c) => c.trim() !== "");
  if (form.templateJoin === "and" && last >= 0) {
    const joined = `(${rule.conditions[last]!.trim()}) and (${built.expression})`;
    if (joined.length > POLICY_LIMITS.expressionMaxLength)
      return { form, errors: { [`tpl.${template.id}`]: "the joined condition would be too long" } };
    rule.conditions[last] = joined;
    return { form: { ...form, rules }, errors: {} };
  }
  const blank = rule.conditions.findIndex((c) => c.trim() === "");
  if (blank >= 0) rule.conditions[blank] = built.expression;
  else if (rule.conditions.length < MANUAL_FORM_LIMITS.conditions) rule.conditions.push(built.expression);
  else return { form, errors: { [`tpl.${template.id}`]: "the rule has the most conditions it may have" } };
  return { form: { ...form, rules }, errors: {} };
}
