import { type Policy, POLICY_EFFECTS } from "../authz/policy/policy.js";
import { MAX_REJECTION_REASON_LENGTH } from "../authz/policy/policy-administration-service.js";
import { POLICY_LIMITS } from "../authz/policy/policy-schema.js";
import { h, postForm } from "./html-parts.js";
import { policyActionHref, tabHref } from "./policy-center-paths.js";
import { rulesFitText, rulesToText, targetsToText } from "./policy-text.js";

/** What a policy's page shows. */
export interface PolicyPageModel {
  readonly policy: Policy;
  /** The chain's CSRF hidden input (empty without CSRF). */
  readonly csrfInput: string;
  /** The history fragment (HTML the history view escaped). */
  readonly history: string;
  /** The static-shadow warning (HTML, escaped; empty when no static rule shadows it). */
  readonly shadows?: string;
}

/**
 * One policy: its facts, the edit form (name, description, priority, effect, targets and rules as
 * text, and the version it was read at), the moves its state allows (activate or deactivate,
 * approve or reject when PENDING, delete) and its history.
 */
export function renderPolicyPage(m: PolicyPageModel): string {
  const p = m.policy;
  return `<p><a href="${h(tabHref("policies"))}">All policies</a></p>
${facts(p)}
${m.shadows ?? ""}
<section class="edit"><h2>Edit</h2>
${editForm(p, m.csrfInput)}
</section>
<section class="moves"><h2>State</h2>
${moves(p, m.csrfInput)}
</section>
<section class="history"><h2>History</h2>
${m.history}
</section>`;
}

function facts(p: Policy): string {
  const row = (label: string, value: string) => `<tr><th scope="row">${h(label)}</th><td>${value}</td></tr>`;
  return `<table class="facts"><tbody>
${row("Id", `<code>${h(p.id)}</code>`)}
${row("Source", h(p.source))}
${row("Approval", `<span class="approval approval-${h(p.approvalStatus.toLowerCase())}">${h(p.approvalStatus)}</span>`)}
${row("Active", p.isActive ? "yes" : "no")}
${row("Version", String(p.version))}
${p.aiModel === null ? "" : row("Model", h(p.aiModel))}
${p.confidenceScore === null ? "" : row("Confidence", String(p.confidenceScore))}
${row("Updated", h(new Date(p.updatedAt).toISOString()))}
</tbody></table>`;
}

function editForm(p: Policy, csrfInput: string): string {
  const effect = POLICY_EFFECTS.map(
    (e) => `<option value="${e}"${e === p.effect ? " selected" : ""}>${e}</option>`,
  ).join("");
  const rules = rulesFitText(p)
    ? `<label>Rules <textarea name="rules" rows="6">\n${h(rulesToText(p.rules))}</textarea></label>
<p class="hint">A <code>[rule name]</code> line, then one condition expression per line.</p>`
    : `<p class="hint">The rules hold line breaks the form cannot show: change them through the policies API.</p>`;
  return postForm({
    action: policyActionHref(p.id, "edit"),
    csrfInput,
    hidden: { version: p.version },
    className: "policy-edit",
    fields: `<label>Name <input type="text" name="name" required maxlength="${POLICY_LIMITS.nameMaxLength}" value="${h(p.name)}"></label>
<label>Description <textarea name="description" rows="3" maxlength="${POLICY_LIMITS.descriptionMaxLength}">\n${h(p.description)}</textarea></label>
<label>Priority <input type="number" name="priority" required min="${POLICY_LIMITS.priorityMin}" max="${POLICY_LIMITS.priorityMax}" value="${p.priority}"></label>
<label>Effect <select name="effect">${effect}</select></label>
<label>Targets <textarea name="targets" rows="4" required>\n${h(targetsToText(p.targets))}</textarea></label>
<p class="hint">One per line: <code>URL GET /api/orders/**</code> or <code>METHOD OrderService.get(string)</code>.</p>
${rules}
`,
    button: "Save",
  });
}

function moves(p: Policy, csrfInput: string): string {
  const move = (action: string, button: string, fields?: string) =>
    postForm({
      action: policyActionHref(p.id, action),
      csrfInput,
      className: action,
      button,
      ...(fields ? { fields } : {}),
    });
  const out: string[] = [];
  if (p.approvalStatus === "PENDING") {
    out.push(move("approve", "Approve"));
    out.push(
      move(
        "reject",
        "Reject",
        `<label>Reason <input type="text" name="reason" maxlength="${MAX_REJECTION_REASON_LENGTH}"></label>`,
      ),
    );
  }
  if (p.isActive) out.push(move("deactivate", "Deactivate"));
  else if (p.approvalStatus !== "REJECTED") out.push(move("activate", "Activate"));
  out.push(move("delete", "Delete"));
  return out.join("\n");
}
