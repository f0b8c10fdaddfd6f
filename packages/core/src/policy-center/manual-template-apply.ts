import { findConditionTemplate } from "./condition-templates.js";
import { type FormErrors, MANUAL_FORM_LIMITS, type ManualPolicyForm } from "./manual-policy-form.js";

/**
 * The picker's "add" button without script: builds the template's expression from its fields and
 * appends it as a condition of the chosen rule (into its first blank condition, else a new one; a
 * rule index past the last rule starts a new rule). A bad value is an error on `tpl.<id>`, and the
 * form is unchanged.
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
  const blank = rule.conditions.findIndex((c) => c.trim() === "");
  if (blank >= 0) rule.conditions[blank] = built.expression;
  else if (rule.conditions.length < MANUAL_FORM_LIMITS.conditions) rule.conditions.push(built.expression);
  else return { form, errors: { [`tpl.${template.id}`]: "the rule has the most conditions it may have" } };
  return { form: { ...form, rules }, errors: {} };
}
