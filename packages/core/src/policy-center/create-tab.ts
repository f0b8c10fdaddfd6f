import { POLICY_EFFECTS, POLICY_HTTP_METHODS, TARGET_TYPES } from "../authz/policy/policy.js";
import { POLICY_LIMITS } from "../authz/policy/policy-schema.js";
import { ZERO_TRUST_ACTIONS } from "../authz/zerotrust/zero-trust-action.js";
import type { ManagedResource } from "../resources/managed-resource.js";
import { escapeHtml as e } from "../web/html-escape.js";
import { CONDITION_TEMPLATES } from "./condition-templates.js";
import { renderPolicyPreview } from "./create-tab-preview.js";
import { type FormErrors, MANUAL_FORM_LIMITS, type ManualPolicyForm } from "./manual-policy-form.js";
import type { PolicyPreview } from "./policy-preview.js";

/** The resource the create tab was opened for, as the tab shows it. */
export type CreateTabResource = Pick<
  ManagedResource,
  "id" | "friendlyName" | "resourceType" | "resourceIdentifier" | "httpMethod" | "status"
>;

/** What the create tab shows. Every string is escaped when rendered. */
export interface CreateTabModel {
  /** The manual form's values (a fresh one from {@link newManualForm}, or the one posted). */
  readonly form: ManualPolicyForm;
  /** Messages by field name, shown next to their fields. */
  readonly errors?: FormErrors | undefined;
  /** Shown under the form after `action=preview`. */
  readonly preview?: PolicyPreview | undefined;
  /** The resource the target was pre-filled from; also enables the quick-grant form. */
  readonly resource?: CreateTabResource | undefined;
  /** The values of the quick-grant form, after a refused quick grant. */
  readonly quick?: { readonly roles: string; readonly permissions: string } | undefined;
  /** The CSRF field the forms post (undefined on a chain without CSRF). */
  readonly csrf: { readonly parameterName: string; readonly token: string } | undefined;
  /** Where the manual and quick forms post (`/admin/policy-center/create-policy`). */
  readonly createPolicyUrl: string;
  /** Where the page script sends a quick grant as JSON (`/admin/policy-center/api/quick-create`). */
  readonly quickCreateUrl: string;
}

/** A fresh manual form: empty, or its target, name and sample pre-filled from `resource`. */
export function newManualForm(resource?: CreateTabResource): ManualPolicyForm {
  const url = resource?.resourceType === "URL";
  return {
    resourceId: resource?.id ?? "",
    name: resource ? `Access to ${resource.friendlyName}`.slice(0, POLICY_LIMITS.nameMaxLength) : "",
    description: "",
    effect: "ALLOW",
    priority: "0",
    targets: resource
      ? [
          {
            type: resource.resourceType,
            identifier: resource.resourceIdentifier,
            method: url ? (resource.httpMethod ?? "ANY") : "ANY",
            source: "RESOURCE",
          },
        ]
      : [],
    rules: [],
    sample: { method: "", path: "", roles: "", authorities: "", anonymous: false, zeroTrustAction: "" },
    templateValues: {},
    templateRule: "0",
    templateJoin: "and",
  };
}

// One field's error, and the attributes that tie the field to it.
function problem(errors: FormErrors, key: string): { attrs: string; text: string } {
  const message = errors[key];
  if (message === undefined) return { attrs: "", text: "" };
  const id = `err-${key.replace(/[^A-Za-z0-9-]/g, "-")}`;
  return {
    attrs: ` aria-invalid="true" aria-describedby="${e(id)}"`,
    text: `<span class="field-error" id="${e(id)}">${e(message)}</span>`,
  };
}

function input(errors: FormErrors, key: string, value: string, label: string, extra = ""): string {
  const p = problem(errors, key);
  const id = `f-${key.replace(/[^A-Za-z0-9-]/g, "-")}`;
  return `<label for="${e(id)}">${e(label)}</label> <input id="${e(id)}" name="${e(key)}" value="${e(value)}"${extra}${p.attrs}>${p.text}`;
}

const TEMPLATE_JOINS = [
  ["and", "required with the rule's last condition (and)"],
  ["or", "an alternative condition (or)"],
] as const;

function select(
  errors: FormErrors,
  key: string,
  value: string,
  options: readonly (string | readonly [value: string, text: string])[],
  label: string,
): string {
  const p = problem(errors, key);
  const id = `f-${key.replace(/[^A-Za-z0-9-]/g, "-")}`;
  const opts = options
    .map((option) => {
      const [o, text] = typeof option === "string" ? [option, option || "(none)"] : option;
      return `<option value="${e(o)}"${o === value ? " selected" : ""}>${e(text)}</option>`;
    })
    .join("");
  return `<label for="${e(id)}">${e(label)}</label> <select id="${e(id)}" name="${e(key)}"${p.attrs}>${opts}</select>${p.text}`;
}

function csrfField(model: CreateTabModel): string {
  return model.csrf
    ? `<input type="hidden" name="${e(model.csrf.parameterName)}" value="${e(model.csrf.token)}">`
    : "";
}

function resourceSection(model: CreateTabModel): string {
  const r = model.resource;
  if (!r) return "";
  const errors = model.errors ?? {};
  const key =
    r.resourceType === "URL" ? `${r.httpMethod ?? "ANY"} ${r.resourceIdentifier}` : r.resourceIdentifier;
  const quick = model.quick ?? { roles: "", permissions: "" };
  const q = problem(errors, "quick");
  return `<section class="authoring-resource" aria-labelledby="resource-heading">
<h2 id="resource-heading">Resource: ${e(r.friendlyName)}</h2>
<p><code>${e(key)}</code> · <span class="status" id="resource-status">${e(r.status)}</span></p>
<form method="post" action="${e(model.createPolicyUrl)}" id="quick-create-form" data-quick-create-url="${e(model.quickCreateUrl)}">
${csrfField(model)}<input type="hidden" name="resourceId" value="${e(r.id)}">
<fieldset><legend>Quick grant: one ALLOW policy for these roles or permissions</legend>
<p>${input(errors, "quick.roles", quick.roles, "Roles", ' placeholder="ADMIN, MANAGER"')}</p>
<p>${input(errors, "quick.permissions", quick.permissions, "Permissions", ' placeholder="order:read"')}</p>
${q.text ? `<p role="alert">${q.text}</p>` : ""}<button type="submit" name="action" value="quick" id="quick-create-button">Grant</button>
<p id="quick-create-status" role="status" aria-live="polite"></p>
</fieldset></form>
</section>`;
}

function targetRows(form: ManualPolicyForm, errors: FormErrors): string {
  const rows = [...form.targets];
  if (rows.length < MANUAL_FORM_LIMITS.targets)
    rows.push({ type: "URL", identifier: "", method: "ANY", source: "MANUAL" });
  return rows
    .map((t, i) => {
      const k = `target.${i}`;
      return `<li class="target-row">${select(errors, `${k}.type`, t.type, TARGET_TYPES, "Type")}
${input(errors, `${k}.identifier`, t.identifier, "URL pattern or method", ' size="48" placeholder="/api/orders/{id}"')}
${select(errors, `${k}.method`, t.method, POLICY_HTTP_METHODS, "HTTP method")}
<input type="hidden" name="${e(`${k}.source`)}" value="${e(t.source)}"></li>`;
    })
    .join("\n");
}

function ruleBlocks(form: ManualPolicyForm, errors: FormErrors): string {
  const rules = form.rules.map((r) => ({ name: r.name, conditions: [...r.conditions] }));
  if (rules.length < MANUAL_FORM_LIMITS.rules) rules.push({ name: "", conditions: [] });
  return rules
    .map((r, i) => {
      if (r.conditions.length < MANUAL_FORM_LIMITS.conditions) r.conditions.push("");
      const conditions = r.conditions
        .map(
          (c, j) =>
            `<li>${input(errors, `rule.${i}.condition.${j}`, c, `Condition ${j + 1}`, ' size="64" class="expression" placeholder="hasRole(\'ADMIN\') and #ai.isAllowed()"')}</li>`,
        )
        .join("\n");
      return `<fieldset class="rule"><legend>Rule ${i + 1}</legend>
<p>${input(errors, `rule.${i}.name`, r.name, "Rule name")}</p>
<p class="hint">Any condition that holds applies the policy (conditions are joined with <code>or</code>; write <code>and</code> inside one).</p>
<ol class="conditions">${conditions}</ol></fieldset>`;
    })
    .join("\n");
}

function templatePicker(form: ManualPolicyForm, errors: FormErrors): string {
  const ruleCount = Math.min(form.rules.length + 1, MANUAL_FORM_LIMITS.rules);
  const ruleOptions = Array.from({ length: ruleCount }, (_, i) => {
    const name = form.rules[i]?.name.trim();
    return [
      String(i),
      i < form.rules.length ? `Rule ${i + 1}${name ? `: ${name}` : ""}` : "A new rule",
    ] as const;
  });
  const templates = CONDITION_TEMPLATES.map((t) => {
    const p = problem(errors, `tpl.${t.id}`);
    const fields = t.params
      .map((param) => {
        const key = `tpl.${t.id}.${param.name}`;
        const value = form.templateValues[`${t.id}.${param.name}`] ?? param.initial ?? "";
        return input(errors, key, value, param.label, ` placeholder="${e(param.placeholder)}"`);
      })
      .join(" ");
    return `<li class="template" data-template="${e(t.id)}"><strong>${e(t.label)}</strong>: ${e(t.hint)}
${fields} <button type="submit" name="action" value="template:${e(t.id)}"${p.attrs}>Add</button>${p.text}</li>`;
  }).join("\n");
  return `<fieldset class="templates"><legend>Condition templates</legend>
<p>${select(errors, "templateRule", form.templateRule, ruleOptions, "Add to")} ${select(errors, "templateJoin", form.templateJoin, TEMPLATE_JOINS, "as")}</p>
<p class="hint">A rule grants when any of its conditions holds: "required with" narrows the rule's last condition (<code>(…) and (…)</code>); "an alternative" adds a condition of its own, which widens the rule.</p>
<ul>${templates}</ul></fieldset>`;
}

function sampleFields(form: ManualPolicyForm, errors: FormErrors): string {
  const s = form.sample;
  const methods = ["", ...POLICY_HTTP_METHODS.filter((m) => m !== "ANY")];
  return `<fieldset class="sample"><legend>Preview with a sample request</legend>
<p>${select(errors, "sample.method", s.method, methods, "Method")} ${input(errors, "sample.path", s.path, "Path", ' placeholder="from the first target"')}</p>
<p>${input(errors, "sample.roles", s.roles, "Roles")} ${input(errors, "sample.authorities", s.authorities, "Authorities")}
<label><input type="checkbox" name="sample.anonymous"${s.anonymous ? " checked" : ""}> Anonymous</label>
${select(errors, "sample.zeroTrustAction", s.zeroTrustAction, ["", ...ZERO_TRUST_ACTIONS], "Zero-trust action")}</p>
</fieldset>`;
}

/**
 * The Policy Center's create tab (`?tab=create`), the body the console shell wraps: the resource the
 * tab was opened for with its quick-grant form, and the manual form (name, description, effect,
 * priority, targets, rules of conditions, a sample for the preview, Preview and Save buttons (Preview
 * first: the one Enter presses), the condition templates), then the preview when there is one. Forms post without script (one blank
 * row of each list is always offered; a template's Add button fills it in); every value is escaped.
 */
export function renderCreateTab(model: CreateTabModel): string {
  const { form } = model;
  const errors = model.errors ?? {};
  const general = errors.form === undefined ? "" : `<p class="form-error" role="alert">${e(errors.form)}</p>`;
  const count = Object.keys(errors).length;
  const summary =
    count === 0
      ? ""
      : `<p class="form-error" role="alert">The policy was not saved: ${count} field${count === 1 ? "" : "s"} to correct.</p>`;
  return `<section class="create-tab" aria-labelledby="create-heading">
<h2 id="create-heading">Create a policy</h2>
${resourceSection(model)}
<form method="post" action="${e(model.createPolicyUrl)}" id="manual-policy-form" novalidate>
${csrfField(model)}<input type="hidden" name="resourceId" value="${e(form.resourceId)}">
${summary}${general}<fieldset><legend>Policy</legend>
<p>${input(errors, "name", form.name, "Name", ` maxlength="${POLICY_LIMITS.nameMaxLength}" required`)}</p>
<p><label for="f-description">Description</label> <textarea id="f-description" name="description" rows="2" cols="60">\n${e(form.description)}</textarea>${problem(errors, "description").text}</p>
<p>${select(errors, "effect", form.effect, POLICY_EFFECTS, "Effect")} ${input(errors, "priority", form.priority, "Priority (lower first)", ' inputmode="numeric" size="8"')}</p>
</fieldset>
<fieldset><legend>Targets</legend><ol class="targets">${targetRows(form, errors)}</ol></fieldset>
${ruleBlocks(form, errors)}
${sampleFields(form, errors)}
<p class="actions"><button type="submit" name="action" value="preview" id="preview-button">Preview</button>
<button type="submit" name="action" value="save" id="save-button">Save policy</button></p>
${templatePicker(form, errors)}
</form>
${model.preview ? renderPolicyPreview(model.preview) : ""}
</section>`;
}
