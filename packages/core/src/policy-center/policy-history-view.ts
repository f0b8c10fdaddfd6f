import type { PolicyRevision } from "../authz/policy/policy-revision-repository.js";
import { escapeHtml } from "../web/html-escape.js";

/** What the history table says of each action, for an administrator reading it. */
const ACTION_LABELS: Readonly<Record<PolicyRevision["action"], string>> = {
  CREATED: "Created",
  UPDATED: "Updated",
  DELETED: "Deleted",
  ACTIVATED: "Activated",
  DEACTIVATED: "Deactivated",
  APPROVED: "Approved",
  REJECTED: "Rejected",
};

/**
 * A policy's history as an HTML fragment for the console's policy page: a table of version,
 * action, actor, time (ISO 8601, UTC), changed fields and reason, in the order given (the store's:
 * newest first), or a paragraph saying nothing was recorded. Every value is escaped: an actor name
 * or a rejection reason holding markup renders as text. No inline script or style.
 */
export function renderPolicyHistory(revisions: readonly PolicyRevision[]): string {
  if (revisions.length === 0) {
    return '<p class="policy-history empty">No changes recorded for this policy.</p>';
  }
  const rows = revisions.map(
    (r) =>
      `<tr class="revision ${r.action.toLowerCase()}">` +
      `<td>${r.policyVersion}</td>` +
      `<td>${escapeHtml(ACTION_LABELS[r.action] ?? String(r.action))}</td>` +
      `<td>${escapeHtml(r.actor)}</td>` +
      `<td><time datetime="${isoTime(r.at)}">${isoTime(r.at)}</time></td>` +
      `<td>${r.changedFields.length === 0 ? "-" : escapeHtml(r.changedFields.join(", "))}</td>` +
      `<td>${r.reason ? escapeHtml(r.reason) : "-"}</td>` +
      "</tr>",
  );
  return (
    '<table class="policy-history"><caption>History of changes</caption>' +
    '<thead><tr><th scope="col">Version</th><th scope="col">Action</th><th scope="col">By</th>' +
    '<th scope="col">When (UTC)</th><th scope="col">Changed fields</th><th scope="col">Reason</th></tr></thead>' +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

// A time a store answered out of range (never written by the PAP) shows as "-", never throws.
function isoTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "-" : date.toISOString();
}
