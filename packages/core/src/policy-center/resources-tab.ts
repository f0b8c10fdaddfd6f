import type { ManagedResource } from "../resources/managed-resource.js";
import { RESOURCE_STATUSES, RESOURCE_TYPES } from "../resources/managed-resource.js";
import { MAX_RESOURCE_NAME_LENGTH } from "../resources/resource-admin-endpoints.js";
import { MAX_FILTER_TEXT_LENGTH, type ResourceQuery, resourceQueryString } from "./console-query.js";
import { h, options, postForm } from "./html-parts.js";
import { POLICY_CENTER_PATH, resourceActionHref, tabHref } from "./policy-center-paths.js";

/** What the resources tab shows. */
export interface ResourcesTabModel {
  readonly query: ResourceQuery;
  readonly items: readonly ManagedResource[];
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  /** The chain's CSRF hidden input (empty without CSRF). */
  readonly csrfInput: string;
}

/**
 * The resources tab: a GET filter form (status, service owner, keyword, type), the table, a form
 * per row for the moves its status allows (define with the proposed name editable, exclude,
 * restore), and paging links. Every value is escaped: an AI-proposed name is data.
 */
export function renderResourcesTab(m: ResourcesTabModel): string {
  const back = resourceQueryString(m.query).toString();
  const rows = m.items.map((r) => resourceRow(r, m.csrfInput, back)).join("\n");
  const table =
    m.items.length === 0
      ? `<p class="empty">No resources match.</p>`
      : `<table class="resources"><thead><tr><th>Name</th><th>Resource</th><th>Owner</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
  return `${filterForm(m.query)}
<p class="count">${m.total} resource${m.total === 1 ? "" : "s"}${m.total > 0 ? `, showing ${Math.min(m.offset + 1, m.total)} to ${Math.min(m.offset + m.items.length, m.total)}` : ""}</p>
${table}
${paging(m)}`;
}

function filterForm(q: ResourceQuery): string {
  return `<form method="get" action="${h(POLICY_CENTER_PATH)}" class="filters" role="search">
<input type="hidden" name="tab" value="resources">
<label>Status <select name="status">${options(RESOURCE_STATUSES, q.status)}</select></label>
<label>Type <select name="type">${options(RESOURCE_TYPES, q.type)}</select></label>
<label>Service owner <input type="text" name="serviceOwner" maxlength="${MAX_FILTER_TEXT_LENGTH}" value="${h(q.serviceOwner ?? "")}"></label>
<label>Keyword <input type="search" name="q" maxlength="${MAX_FILTER_TEXT_LENGTH}" value="${h(q.q ?? "")}"></label>
<button type="submit">Filter</button>
</form>`;
}

function resourceRow(r: ManagedResource, csrfInput: string, back: string): string {
  const key =
    r.resourceType === "URL" ? `${r.httpMethod ?? "ANY"} ${r.resourceIdentifier}` : r.resourceIdentifier;
  const permission = r.permission ? `<div class="permission">Permission: ${h(r.permission.name)}</div>` : "";
  return `<tr data-resource-id="${h(r.id)}">
<td><div class="name">${h(r.friendlyName)}</div><div class="description">${h(r.description)}</div>${permission}</td>
<td><span class="type">${h(r.resourceType)}</span> <code>${h(key)}</code></td>
<td>${h(r.serviceOwner)}</td>
<td><span class="status status-${h(r.status.toLowerCase())}">${h(r.status)}</span></td>
<td class="actions">${actionsOf(r, csrfInput, back)}</td>
</tr>`;
}

function actionsOf(r: ManagedResource, csrfInput: string, back: string): string {
  const hidden = { version: r.version, back };
  if (r.status === "NEEDS_DEFINITION") {
    const define = postForm({
      action: resourceActionHref(r.id, "define"),
      csrfInput,
      hidden,
      className: "define",
      fields: `<label>Permission name <input type="text" name="friendlyName" required maxlength="${MAX_RESOURCE_NAME_LENGTH}" value="${h(r.friendlyName)}"></label>`,
      button: "Define",
    });
    const exclude = postForm({
      action: resourceActionHref(r.id, "exclude"),
      csrfInput,
      hidden,
      className: "exclude",
      button: "Exclude",
    });
    return define + exclude;
  }
  if (r.status === "EXCLUDED") {
    return postForm({
      action: resourceActionHref(r.id, "restore"),
      csrfInput,
      hidden,
      className: "restore",
      button: "Restore",
    });
  }
  const create = new URLSearchParams({ resourceId: r.id });
  return `<a href="${h(tabHref("create", create))}">Create a policy</a>`;
}

function paging(m: ResourcesTabModel): string {
  const link = (offset: number, label: string, rel: string) => {
    const q = resourceQueryString({ ...m.query, offset: offset === 0 ? undefined : offset });
    return `<a rel="${rel}" href="${h(tabHref("resources", q))}">${h(label)}</a>`;
  };
  const parts: string[] = [];
  if (m.offset > 0) parts.push(link(Math.max(0, m.offset - m.limit), "Previous", "prev"));
  if (m.offset + m.limit < m.total) parts.push(link(m.offset + m.limit, "Next", "next"));
  return parts.length === 0 ? "" : `<nav class="paging" aria-label="Pages">${parts.join(" ")}</nav>`;
}
