import type { RehearsalContent } from "../../governance/evidence/rehearsal-content.js";
import type { EvidenceRecord } from "../../governance/evidence/release-evidence-ledger.js";
import { h, shownInstant } from "./inspection-overview-view.js";

/** How many rehearsals the overview lists. */
export const SHOWN_REHEARSALS = 10;

function row(record: EvidenceRecord): string {
  const r = record.content as unknown as RehearsalContent;
  const v = r.verdicts;
  const counts = `PASS ${h(v.PASS)}, FAIL ${h(v.FAIL)}, INCOMPLETE ${h(v.INCOMPLETE)}, NOT_APPLICABLE ${h(v.NOT_APPLICABLE)}, ERROR ${h(v.ERROR)}`;
  const failed = v.FAIL + v.ERROR > 0;
  return `<tr data-evidence="${h(record.id)}" data-outcome="${failed ? "FAIL" : "OK"}">
<td><strong>${h(record.promptVersion)}</strong><br><code title="${h(record.bundleHash)}">${h(record.bundleHash.slice(0, 12))}…</code></td>
<td><time>${h(shownInstant(r.period.from))}</time> to <time>${h(shownInstant(r.period.to))}</time>${r.truncated ? `<br><span class="hint">more in the period</span>` : ""}</td>
<td class="count">${h(r.packages)}</td>
<td>${failed ? `<span class="alert-flag">${counts}</span>` : counts}</td>
<td>${h(record.recordedBy)}<br><time>${h(shownInstant(record.recordedAt))}</time></td></tr>`;
}

/**
 * The overview's list of the newest REHEARSAL evidence records (`platform bundles rehearse`):
 * the candidate, the period, how many contexts and the verdicts. Every value is escaped.
 */
export function renderRehearsals(records: readonly EvidenceRecord[] | undefined): string {
  if (records === undefined) return "";
  const body =
    records.length === 0
      ? `<p class="hint">No rehearsal recorded yet (<code>platform bundles rehearse &lt;candidate&gt;</code>).</p>`
      : `<table class="rehearsals"><thead><tr><th>Candidate</th><th>Contexts captured</th><th>Rehearsed</th><th>Verdicts</th><th>Recorded</th></tr></thead><tbody>${records.map(row).join("")}</tbody></table>`;
  return `<h2>Rehearsals</h2>\n<p class="hint">Sealed contexts rendered again with a candidate bundle and held to the layout checks, no model called; the gate does not count them.</p>\n${body}`;
}
