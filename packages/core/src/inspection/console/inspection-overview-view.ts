import { escapeHtml } from "../../web/html-escape.js";
import type { InspectionOverviewJson } from "../../web/wire/inspection-messages.js";
import { INSPECTION_PAGE_PATH, inspectionPackagesLink } from "./inspection-console-paths.js";

/** A value as page text or a quoted attribute: escaped, numbers included. */
export const h = (value: string | number): string => escapeHtml(String(value));

/** An instant as the pages show and take it: ISO-8601 UTC to the second. */
export function shownInstant(at: number): string {
  return Number.isFinite(at) && Math.abs(at) <= 8_640_000_000_000_000
    ? new Date(at).toISOString().replace(".000Z", "Z")
    : "";
}

/** The period form of the overview and the packages page: GET, so no CSRF token is needed. */
export function periodInputs(from: string, to: string): string {
  return `<label>From <input name="from" value="${h(from)}" placeholder="2026-11-20T00:00:00Z" maxlength="40"></label>
<label>To <input name="to" value="${h(to)}" placeholder="now" maxlength="40"></label>`;
}

function verdicts(o: InspectionOverviewJson, period: { from: string; to: string }): string {
  const rows = Object.entries(o.byVerdict).map(
    ([verdict, n]) =>
      `<tr data-verdict="${h(verdict)}"><td><span class="status verdict-${h(verdict.toLowerCase())}">${h(verdict)}</span></td><td class="count">${h(n)}</td><td><a href="${h(inspectionPackagesLink({ verdict, ...period }))}">packages</a></td></tr>`,
  );
  return `<table class="verdicts"><thead><tr><th>Verdict</th><th>Packages</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function checks(o: InspectionOverviewJson, period: { from: string; to: string }): string {
  const rows = o.byCheck.map(
    (c) =>
      `<tr data-check="${h(c.check)}"><td><code>${h(c.check)}</code></td><td class="count">${h(c.mismatchPackages)}</td><td class="count">${h(c.unverifiablePackages)}</td><td class="count">${h(c.mismatchFindings)}</td><td class="count">${h(c.unverifiableFindings)}</td><td><a href="${h(inspectionPackagesLink({ check: c.check, ...period }))}">packages</a></td></tr>`,
  );
  return `<table class="checks"><thead><tr><th>Check</th><th>Packages with a mismatch</th><th>Packages unverifiable</th><th>Mismatches</th><th>Unverifiable items</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function reasons(o: InspectionOverviewJson): string {
  if (o.byReason.length === 0) return `<p class="hint">No findings in this period.</p>`;
  const rows = o.byReason.map(
    (r) =>
      `<tr><td><code>${h(r.check)}</code></td><td>${h(r.kind)}</td><td><code>${h(r.reason)}</code></td><td class="count">${h(r.findings)}</td></tr>`,
  );
  return `<table class="reasons"><thead><tr><th>Check</th><th>Kind</th><th>Reason</th><th>Findings</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/**
 * The overview page's body: the period form, then the period's inspected packages by verdict, by
 * check (packages and findings of each kind) and by reason, each count linking to the packages
 * page filtered to it. Every value is escaped.
 */
export function renderInspectionOverview(o: InspectionOverviewJson): string {
  const period = { from: shownInstant(o.from), to: shownInstant(o.to) };
  const truncated = o.truncated
    ? ` <span class="hint">(the period holds more results than the overview counts: narrow it)</span>`
    : "";
  return `<form method="get" action="${h(INSPECTION_PAGE_PATH)}" class="filters period">
${periodInputs(period.from, period.to)}
<button type="submit">Show</button>
</form>
<p class="summary">Packages captured <time>${h(period.from)}</time> to <time>${h(period.to)}</time> and inspected by <code>${h(o.inspectorVersion)}</code> (dictionary <code>${h(o.dictionaryVersion)}</code>): <strong class="inspected">${h(o.inspected)}</strong>${truncated}. <a href="${h(inspectionPackagesLink(period))}">All packages of the period</a></p>
<h2>By verdict</h2>
${verdicts(o, period)}
<h2>By check</h2>
${checks(o, period)}
<h2>By reason</h2>
${reasons(o)}`;
}
