import { isPlatformError } from "../kernel/platform-error.js";
import type { FormErrors, ManualDraft } from "./manual-policy-form.js";

const TARGET_FIELDS: Readonly<Record<string, string>> = {
  targetType: "type",
  targetIdentifier: "identifier",
  httpMethod: "method",
};

// `targets.2.targetIdentifier` → `target.<row>.identifier`; `rules.1.conditions.0.expression` →
// `rule.<row>.condition.<row>`; a top-level field keeps its name.
function fieldOfIssue(path: string, rows: ManualDraft["rows"]): string {
  const parts = path.split(".");
  const [head, index, sub, subIndex] = parts;
  if (head === "targets" && index !== undefined) {
    const row = rows.targets[Number(index)] ?? 0;
    return `target.${row}.${TARGET_FIELDS[sub ?? ""] ?? "identifier"}`;
  }
  if (head === "rules" && index !== undefined) {
    const rule = rows.rules[Number(index)];
    const row = rule?.row ?? 0;
    if (sub === "conditions") return `rule.${row}.condition.${rule?.conditions[Number(subIndex)] ?? 0}`;
    return `rule.${row}.name`;
  }
  if (head === "sample") return path;
  return head === "" || head === undefined ? "form" : head;
}

/**
 * Places the PAP's refusal of a draft next to the fields it is about: VALIDATION_FAILED issues by
 * their path, POLICY_EXPRESSION_INVALID on the condition (or, for the policy's combined expression,
 * on the form as a whole). Undefined for any other error, which the caller lets through.
 */
export function formErrorsOf(error: unknown, rows: ManualDraft["rows"]): FormErrors | undefined {
  if (isPlatformError(error, "VALIDATION_FAILED")) {
    const errors: FormErrors = {};
    const issues = (error.details?.issues ?? []) as { path?: unknown; message?: unknown }[];
    for (const issue of issues) {
      const key = fieldOfIssue(String(issue.path ?? ""), rows);
      errors[key] ??= String(issue.message ?? "is invalid");
    }
    if (Object.keys(errors).length === 0) errors.form = error.message;
    return errors;
  }
  if (isPlatformError(error, "POLICY_EXPRESSION_INVALID")) {
    const d: Record<string, unknown> = error.details ?? {};
    const reason = typeof d.reason === "string" ? d.reason : error.message;
    const at = typeof d.position === "number" ? ` (at character ${d.position + 1})` : "";
    if (typeof d.ruleIndex === "number" && typeof d.condition === "number") {
      const rule = rows.rules[d.ruleIndex];
      const key = `rule.${rule?.row ?? 0}.condition.${rule?.conditions[d.condition] ?? 0}`;
      return { [key]: `not a valid expression: ${reason}${at}` };
    }
    return { form: `The policy's combined expression is not valid: ${reason}${at}` };
  }
  return undefined;
}
