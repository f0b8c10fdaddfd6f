import { APPROVAL_STATUSES, type Policy, POLICY_SOURCES, TARGET_TYPES } from "../authz/policy/policy.js";
import { MAX_FILTER_TEXT_LENGTH, type PageQuery } from "./console-query.js";
import { h, options } from "./html-parts.js";
import { POLICY_CENTER_PATH, policyHref } from "./policy-center-paths.js";

/** What the policies tab shows. */
export interface PoliciesTabModel {
  readonly query: PageQuery;
  /** The matching policies, in evaluation order. */
  readonly policies: readonly Policy[];
}

/**
 * The policies tab: a GET filter form (source, approval, active, target type, keyword) and the
 * policies in evaluation order, each name linking to its page, where it is edited and moved.
 */
export function renderPoliciesTab(m: PoliciesTabModel): string {
  const rows = m.policies.map(policyRow).join("\n");
  const table =
    m.policies.length === 0
      ? `<p class="empty">No policies match.</p>`
      : `<table class="policies"><thead><tr><th>Name</th><th>Effect</th><th>Priority</th><th>Source</th><th>Approval</th><th>Active</th><th>Targets</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
  return `${filterForm(m.query)}
<p class="count">${m.policies.length} polic${m.policies.length === 1 ? "y" : "ies"}</p>
${table}`;
}

function filterForm(q: PageQuery): string {
  return `<form method="get" action="${h(POLICY_CENTER_PATH)}" class="filters" role="search">
<input type="hidden" name="tab" value="policies">
<label>Source <select name="source">${options(POLICY_SOURCES, q.source)}</select></label>
<label>Approval <select name="approvalStatus">${options(APPROVAL_STATUSES, q.approvalStatus)}</select></label>
<label>Active <select name="isActive">${options(["true", "false"], q.isActive)}</select></label>
<label>Target type <select name="targetType">${options(TARGET_TYPES, q.targetType)}</select></label>
<label>Keyword <input type="search" name="q" maxlength="${MAX_FILTER_TEXT_LENGTH}" value="${h(q.q ?? "")}"></label>
<button type="submit">Filter</button>
</form>`;
}

function policyRow(p: Policy): string {
  const targets = p.targets
    .slice(0, 3)
    .map(
      (t) =>
        `<code>${h(t.targetType === "URL" ? `${t.httpMethod} ${t.targetIdentifier}` : t.targetIdentifier)}</code>`,
    )
    .join(" ");
  const more = p.targets.length > 3 ? ` and ${p.targets.length - 3} more` : "";
  return `<tr data-policy-id="${h(p.id)}">
<td><a href="${h(policyHref(p.id))}">${h(p.name)}</a></td>
<td>${h(p.effect)}</td>
<td>${p.priority}</td>
<td>${h(p.source)}</td>
<td><span class="approval approval-${h(p.approvalStatus.toLowerCase())}">${h(p.approvalStatus)}</span></td>
<td>${p.isActive ? "yes" : "no"}</td>
<td>${targets}${more}</td>
</tr>`;
}
