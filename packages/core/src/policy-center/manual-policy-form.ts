import { POLICY_LIMITS, type PolicyCreateInput } from "../authz/policy/policy-schema.js";
import { UNSAFE_TEXT } from "../kernel/unsafe-text.js";
import { POLICY_EFFECTS, POLICY_HTTP_METHODS, TARGET_TYPES } from "../authz/policy/policy.js";
import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "../authz/zerotrust/zero-trust-action.js";
import type { BodyFields } from "../web/http-exchange.js";
import { CONDITION_TEMPLATES, listOf } from "./condition-templates.js";

/** One target row of the manual form, as typed. */
export interface ManualTargetRow {
  readonly type: string;
  readonly identifier: string;
  readonly method: string;
  /** RESOURCE when the row was pre-filled from a managed resource, else MANUAL. */
  readonly source: string;
}

/** One rule of the manual form: a name and its condition expressions, as typed. */
export interface ManualRuleRow {
  readonly name: string;
  readonly conditions: readonly string[];
}

/** The sample request and subject the preview simulates, as typed. */
export interface ManualSample {
  readonly method: string;
  readonly path: string;
  readonly roles: string;
  readonly authorities: string;
  readonly anonymous: boolean;
  readonly zeroTrustAction: string;
}

/** The manual form's values, kept as typed so a refused form comes back as it was sent. */
export interface ManualPolicyForm {
  readonly resourceId: string;
  readonly name: string;
  readonly description: string;
  readonly effect: string;
  readonly priority: string;
  readonly targets: readonly ManualTargetRow[];
  readonly rules: readonly ManualRuleRow[];
  readonly sample: ManualSample;
  /** The template picker's fields, keyed `<templateId>.<param>`. */
  readonly templateValues: Readonly<Record<string, string>>;
  /** Which rule (form index, as text) a template's condition is added to. */
  readonly templateRule: string;
  /**
   * How it joins that rule: `and` (default) into the rule's last condition, so a restricting
   * template (business hours, an IP range, not blocked) narrows what that condition grants; `or`
   * as a condition of its own, which a rule's conditions join with `or` (an alternative grant).
   */
  readonly templateJoin: "and" | "or";
}

/** What the form's submit button asked for. */
export type ManualFormAction =
  | { readonly kind: "preview" }
  | { readonly kind: "save" }
  | { readonly kind: "quick" }
  | { readonly kind: "template"; readonly templateId: string };

/** Messages by form field name (`name`, `target.0.identifier`, `rule.1.condition.0`). */
export type FormErrors = Record<string, string>;

/** The policy a valid form describes, and where each of its parts sits in the form. */
export interface ManualDraft {
  readonly draft: PolicyCreateInput;
  /** Form row of each draft target, rule and condition (blank rows are skipped in the draft). */
  readonly rows: {
    readonly targets: readonly number[];
    readonly rules: readonly { readonly row: number; readonly conditions: readonly number[] }[];
  };
}

/** Most rows the form reads of each list (the policy schema's own limits). */
export const MANUAL_FORM_LIMITS = {
  targets: POLICY_LIMITS.maxTargets,
  rules: POLICY_LIMITS.maxRules,
  conditions: POLICY_LIMITS.maxConditionsPerRule,
  samplePath: 2_048,
} as const;

function field(fields: BodyFields, key: string): string {
  const value = fields[key];
  return typeof value === "string" ? value : "";
}

/**
 * The submit button's action: `preview` (also when none was sent), `save`, `quick` (the quick-grant
 * form, posted here when the page has no script), or `template:<id>`; undefined for anything else.
 */
export function manualFormAction(fields: BodyFields): ManualFormAction | undefined {
  const action = field(fields, "action") || "preview";
  if (action === "preview" || action === "save" || action === "quick") return { kind: action };
  const id = action.startsWith("template:") ? action.slice("template:".length) : undefined;
  return id !== undefined && CONDITION_TEMPLATES.some((t) => t.id === id)
    ? { kind: "template", templateId: id }
    : undefined;
}

/** Reads the manual form's fields (urlencoded) into its values; unknown fields are ignored. */
export function readManualPolicyForm(fields: BodyFields): ManualPolicyForm {
  const targets: ManualTargetRow[] = [];
  for (let i = 0; i < MANUAL_FORM_LIMITS.targets; i++) {
    const p = `target.${i}.`;
    if (!(`${p}identifier` in fields) && !(`${p}type` in fields)) break;
    targets.push({
      type: field(fields, `${p}type`) || "URL",
      identifier: field(fields, `${p}identifier`),
      method: field(fields, `${p}method`) || "ANY",
      source: field(fields, `${p}source`) === "RESOURCE" ? "RESOURCE" : "MANUAL",
    });
  }
  const rules: ManualRuleRow[] = [];
  for (let i = 0; i < MANUAL_FORM_LIMITS.rules; i++) {
    const p = `rule.${i}.`;
    if (!(`${p}name` in fields) && !(`${p}condition.0` in fields)) break;
    const conditions: string[] = [];
    for (let j = 0; j < MANUAL_FORM_LIMITS.conditions && `${p}condition.${j}` in fields; j++) {
      conditions.push(field(fields, `${p}condition.${j}`));
    }
    rules.push({ name: field(fields, `${p}name`), conditions });
  }
  const templateValues: Record<string, string> = {};
  for (const template of CONDITION_TEMPLATES) {
    for (const param of template.params) {
      const key = `${template.id}.${param.name}`;
      if (`tpl.${key}` in fields) templateValues[key] = field(fields, `tpl.${key}`);
    }
  }
  return {
    resourceId: field(fields, "resourceId"),
    name: field(fields, "name"),
    description: field(fields, "description"),
    effect: field(fields, "effect") || "ALLOW",
    priority: field(fields, "priority"),
    targets,
    rules,
    sample: {
      method: field(fields, "sample.method"),
      path: field(fields, "sample.path"),
      roles: field(fields, "sample.roles"),
      authorities: field(fields, "sample.authorities"),
      anonymous: field(fields, "sample.anonymous") === "on",
      zeroTrustAction: field(fields, "sample.zeroTrustAction"),
    },
    templateValues,
    templateRule: field(fields, "templateRule"),
    templateJoin: field(fields, "templateJoin") === "or" ? "or" : "and",
  };
}

function checkText(errors: FormErrors, key: string, value: string, max: number, lineBreaks = false): void {
  const judged = lineBreaks ? value.replace(/[\t\r\n]/g, " ") : value;
  if (value.length > max) errors[key] = `must be at most ${max} characters`;
  else if (UNSAFE_TEXT.test(judged)) errors[key] = "must not contain control or format characters";
}

function targetsOf(form: ManualPolicyForm, errors: FormErrors) {
  const targets: NonNullable<PolicyCreateInput["targets"]>[number][] = [];
  const rows: number[] = [];
  form.targets.forEach((t, i) => {
    const identifier = t.identifier.trim();
    if (identifier === "") return;
    const key = `target.${i}`;
    checkText(errors, `${key}.identifier`, identifier, POLICY_LIMITS.targetIdentifierMaxLength);
    const type = TARGET_TYPES.find((x) => x === t.type);
    const method = POLICY_HTTP_METHODS.find((x) => x === t.method);
    if (!type) errors[`${key}.type`] = "must be URL or METHOD";
    if (!method) errors[`${key}.method`] = `must be one of ${POLICY_HTTP_METHODS.join(", ")}`;
    if (!type || !method) return;
    targets.push({
      targetType: type,
      targetIdentifier: identifier,
      httpMethod: type === "METHOD" ? "ANY" : method,
      sourceType: t.source === "RESOURCE" ? "RESOURCE" : "MANUAL",
    });
    rows.push(i);
  });
  if (rows.length === 0 && !Object.keys(errors).some((k) => k.startsWith("target."))) {
    errors["target.0.identifier"] = "give at least one target (a URL pattern or a method identifier)";
  }
  return { targets, rows };
}

function rulesOf(form: ManualPolicyForm, errors: FormErrors) {
  const rules: { name: string; conditions: { expression: string }[] }[] = [];
  const rows: { row: number; conditions: number[] }[] = [];
  form.rules.forEach((r, i) => {
    const conditions: { expression: string }[] = [];
    const conditionRows: number[] = [];
    r.conditions.forEach((c, j) => {
      const expression = c.trim();
      if (expression === "") return;
      checkText(errors, `rule.${i}.condition.${j}`, expression, POLICY_LIMITS.expressionMaxLength);
      conditions.push({ expression });
      conditionRows.push(j);
    });
    const name = r.name.trim();
    if (name === "" && conditions.length === 0) return;
    checkText(errors, `rule.${i}.name`, name, POLICY_LIMITS.nameMaxLength);
    if (conditions.length === 0) errors[`rule.${i}.condition.0`] = "a rule needs at least one condition";
    rules.push({ name: name || `Rule ${rules.length + 1}`, conditions });
    rows.push({ row: i, conditions: conditionRows });
  });
  return { rules, rows };
}

/**
 * The policy a manual form describes (MANUAL; the PAP sets approval NOT_REQUIRED), or the errors by
 * field. Blank target rows, blank rules and blank conditions are skipped (the page always offers one
 * more of each, so the form grows without script); a rule left without a name is called `Rule <n>`.
 * What the policy schema and the expression check say is for {@link formErrorsOf} to place.
 */
export function manualDraftOf(form: ManualPolicyForm): ManualDraft | { errors: FormErrors } {
  const errors: FormErrors = {};
  const name = form.name.trim();
  if (name === "") errors.name = "give the policy a name";
  else checkText(errors, "name", name, POLICY_LIMITS.nameMaxLength);
  checkText(errors, "description", form.description, POLICY_LIMITS.descriptionMaxLength, true);
  const effect = POLICY_EFFECTS.find((e) => e === form.effect);
  if (!effect) errors.effect = "must be ALLOW or DENY";
  const priorityText = form.priority.trim() || "0";
  const priority = /^-?\d{1,7}$/.test(priorityText) ? Number(priorityText) : Number.NaN;
  if (!(priority >= POLICY_LIMITS.priorityMin && priority <= POLICY_LIMITS.priorityMax)) {
    errors.priority = `must be a whole number from ${POLICY_LIMITS.priorityMin} to ${POLICY_LIMITS.priorityMax}`;
  }
  const targets = targetsOf(form, errors);
  const rules = rulesOf(form, errors);
  if (Object.keys(errors).length > 0 || !effect) return { errors };
  return {
    draft: {
      name,
      description: form.description.trim(),
      effect,
      priority,
      targets: targets.targets,
      rules: rules.rules,
      source: "MANUAL",
    },
    rows: { targets: targets.rows, rules: rules.rows },
  };
}

/** The sample's fields, checked: a bad one is an error on its field. */
export function sampleOf(
  sample: ManualSample,
  errors: FormErrors,
): {
  method?: string;
  path?: string;
  roles: string[];
  authorities: string[];
  anonymous: boolean;
  zeroTrustAction?: ZeroTrustAction;
} {
  const method = sample.method.trim().toUpperCase();
  const path = sample.path.trim();
  if (method !== "" && !POLICY_HTTP_METHODS.some((m) => m === method && m !== "ANY")) {
    errors["sample.method"] = "must be an HTTP method (GET, POST, …)";
  }
  if (
    path !== "" &&
    (!path.startsWith("/") || /[\s?#]/.test(path) || path.length > MANUAL_FORM_LIMITS.samplePath)
  ) {
    errors["sample.path"] = "must be a path starting with '/' (no query string)";
  }
  const action = sample.zeroTrustAction.trim().toUpperCase();
  if (action !== "" && !(ZERO_TRUST_ACTIONS as readonly string[]).includes(action)) {
    errors["sample.zeroTrustAction"] = `must be one of ${ZERO_TRUST_ACTIONS.join(", ")}`;
  }
  for (const key of ["roles", "authorities"] as const) {
    if (sample[key].length > 1_000 || UNSAFE_TEXT.test(sample[key]))
      errors[`sample.${key}`] = "is too long or holds control characters";
  }
  return {
    ...(method ? { method } : {}),
    ...(path ? { path } : {}),
    roles: listOf(sample.roles).slice(0, 50),
    authorities: listOf(sample.authorities).slice(0, 50),
    anonymous: sample.anonymous,
    ...(action && !errors["sample.zeroTrustAction"] ? { zeroTrustAction: action as ZeroTrustAction } : {}),
  };
}
