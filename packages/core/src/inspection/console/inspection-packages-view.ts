import type {
  InspectionPackagePageJson,
  InspectionPackageSummaryJson,
} from "../../web/wire/inspection-messages.js";
import { CHECK_CODES, INSPECTION_VERDICTS } from "../inspection-result.js";
import {
  INSPECTION_PACKAGES_PAGE_PATH,
  inspectionPackagePagePath,
  inspectionPackagesLink,
} from "./inspection-console-paths.js";
import { h, periodInputs, shownInstant } from "./inspection-overview-view.js";

/** The filters the packages page was asked for, as given (blank: not set). */
export interface PackagesFilters {
  readonly verdict?: string | undefined;
  readonly check?: string | undefined;
  readonly block?: string | undefined;
  readonly entry?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

function select(name: string, label: string, options: readonly string[], chosen: string | undefined): string {
  const items = ["", ...options].map(
    (o) =>
      `<option value="${h(o)}"${o === (chosen ?? "") ? " selected" : ""}>${h(o === "" ? "any" : o)}</option>`,
  );
  return `<label>${h(label)} <select name="${h(name)}">${items.join("")}</select></label>`;
}

function filterForm(f: PackagesFilters): string {
  return `<form method="get" action="${h(INSPECTION_PACKAGES_PAGE_PATH)}" class="filters packages-filter">
${select("verdict", "Verdict", INSPECTION_VERDICTS, f.verdict)}
${select("check", "Check", CHECK_CODES, f.check)}
<label>Block <input name="block" value="${h(f.block ?? "")}" placeholder="REQUEST" maxlength="32"></label>
<label>Entry <input name="entry" value="${h(f.entry ?? "")}" placeholder="request.subject" maxlength="100"></label>
${periodInputs(f.from ?? "", f.to ?? "")}
<button type="submit">Filter</button>
</form>`;
}

function row(p: InspectionPackageSummaryJson): string {
  const failed = p.failedChecks.map((c) => `<code>${h(c)}</code>`).join(" ");
  const error = p.error ? `<code>${h(p.error.code)}</code> ${h(p.error.detail)}` : "";
  return `<tr data-package="${h(p.packageId)}" data-verdict="${h(p.verdict)}">
<td><a href="${h(inspectionPackagePagePath(p.packageId))}"><code>${h(p.packageId)}</code></a></td>
<td><time>${h(shownInstant(p.capturedAt))}</time></td>
<td><span class="status verdict-${h(p.verdict.toLowerCase())}">${h(p.verdict)}</span></td>
<td class="count">${h(p.mismatches)}</td><td class="count">${h(p.unverifiable)}</td>
<td>${failed}${error}</td><td>${h(p.layout ?? "")}</td></tr>`;
}

/**
 * The packages page's body: the filter form (verdict, check, block, entry, period; a GET form),
 * the page of inspected packages (newest capture first), each linking to its detail, and a link to
 * the next page with the same filters. Every value is escaped.
 */
export function renderInspectionPackages(page: InspectionPackagePageJson, filters: PackagesFilters): string {
  const table =
    page.packages.length === 0
      ? `<p class="hint">No inspected package matches.</p>`
      : `<table class="packages"><thead><tr><th>Package</th><th>Captured</th><th>Verdict</th><th>Mismatches</th><th>Unverifiable</th><th>Failed checks</th><th>Layout</th></tr></thead><tbody>${page.packages.map(row).join("")}</tbody></table>`;
  const next =
    page.next === null
      ? ""
      : `<p class="paging"><a rel="next" href="${h(inspectionPackagesLink({ ...filters, cursor: page.next }))}">Next page</a></p>`;
  return `${filterForm(filters)}\n${table}\n${next}`;
}
