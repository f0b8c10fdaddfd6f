import { escapeHtml as h } from "../../web/html-escape.js";
import { CONVERGENCE_API } from "../admin/convergence-endpoint.js";
import type { ConvergenceReportJson } from "../../web/wire/convergence-messages.js";

/** The report, or UNAVAILABLE when it could not be read (the rest of the page still shows). */
export type ConvergenceOnPage = ConvergenceReportJson | "UNAVAILABLE" | undefined;

type ScopeReleases = ConvergenceReportJson["scopes"][number]["releases"];
type Instance = ConvergenceReportJson["instances"][number];

const when = (at: number) => (Number.isFinite(at) ? new Date(at).toISOString().replace(".000Z", "Z") : "");
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function share(canary: ScopeReleases[number]["canary"]): string {
  if (canary === null) return "";
  const parts = [
    canary.percent === null ? "the whole scope" : `${canary.percent}%`,
    canary.tenants.length ? `tenants ${canary.tenants.join(", ")}` : "",
    canary.resourceFamilies.length ? `families ${canary.resourceFamilies.join(", ")}` : "",
  ];
  return h(parts.filter(Boolean).join("; "));
}

function executing(releases: ScopeReleases): string {
  if (releases.length === 0)
    return `<p class="empty">Nothing executes here: requests of this scope run PLATFORM_GLOBAL's release, else the build default.</p>`;
  const rows = releases.map(
    (r) =>
      `<tr data-executing="${h(r.status)}" data-version="${h(r.promptVersion)}"><td><code>${h(r.promptKey)}</code></td><td><strong>${h(r.promptVersion)}</strong></td><td>${h(r.status)}</td><td><code title="${h(r.bundleHash)}">${h(r.bundleHash.slice(0, 12))}…</code></td><td class="canary-share">${share(r.canary)}</td><td>${h(when(r.changedAt))}</td></tr>`,
  );
  return `<table class="executing-releases"><thead><tr><th>Prompt key</th><th>Version</th><th>Runs as</th><th>Hash</th><th>Canary share</th><th>Changed</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

// The page script's refresh rewrites the cells by these classes (`.last-beat`, `.serves`, `.verdict`, `.reason`).
function verdictCell(verdict: string, reason: string): string {
  return `<td><span class="verdict verdict-${h(verdict.toLowerCase())}">${h(verdict)}</span></td><td class="hint reason">${h(reason)}</td>`;
}

function scopeInstances(registryScope: string, instances: readonly Instance[]): string {
  const rows = instances.flatMap((i) =>
    i.scopes
      .filter((s) => s.registryScope === registryScope)
      .map((s) => {
        // A silent instance's last word is shown, but its verdict is the instance's.
        const [verdict, reason] =
          i.verdict === "SILENT" || i.verdict === "NOT_FOLLOWING"
            ? [i.verdict, i.reason]
            : [s.verdict, s.reason];
        const served = s.serving.map(
          (e) => `${h(e.source)} ${h(e.promptVersion)} <code>${h(e.bundleHash.slice(0, 12))}</code>`,
        );
        return `<tr data-instance="${h(i.instanceId)}" data-prompt-key="${h(s.promptKey)}" data-verdict="${h(verdict)}"><td><code>${h(i.instanceId)}</code></td><td class="last-beat">${h(when(i.lastBeatAt))}</td><td><code>${h(s.promptKey)}</code>: <span class="serves">${served.join("<br>")}</span></td>${verdictCell(verdict, reason)}</tr>`;
      }),
  );
  if (rows.length === 0) return `<p class="empty">No instance reports this scope.</p>`;
  return `<table class="scope-convergence"><thead><tr><th>Instance</th><th>Last beat</th><th>Serves</th><th>Verdict</th><th>Why</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** One scope's executing releases (with canary share and targets) and every reporting instance's verdict there. */
export function renderScopeConvergence(registryScope: string, report: ConvergenceOnPage): string {
  if (report === undefined || report === "UNAVAILABLE") return "";
  const scope = report.scopes.find((s) => s.registryScope === registryScope);
  return `<div class="convergence" data-scope="${h(registryScope)}"><h3>Executing now and convergence</h3>
${executing(scope?.releases ?? [])}
${scopeInstances(registryScope, report.instances)}</div>`;
}

/** Every instance's overall verdict, with the bound the verdicts use. */
export function renderInstancesSection(report: ConvergenceOnPage): string {
  if (report === undefined) return "";
  if (report === "UNAVAILABLE")
    return `<section class="instances"><h2>Instances</h2><p class="notice error" role="alert">The instances' heartbeats could not be read: convergence is not shown. Reload to try again.</p></section>`;
  const bound = `<p class="hint">An instance serving another bundle than the registry says is PENDING for ${h(seconds(report.boundMs))} after the change (cache TTL + poll interval + heartbeat interval), then STALE; one without a heartbeat for ${h(seconds(report.silentAfterMs))} is SILENT. Report of <span class="convergence-generated">${h(when(report.generatedAt))}</span>.</p>
<p><button type="button" id="convergence-refresh" data-url="${h(CONVERGENCE_API)}">Refresh the verdicts</button> <span id="convergence-status" class="hint" aria-live="polite"></span></p>`;
  if (report.instances.length === 0)
    return `<section class="instances"><h2>Instances</h2>${bound}<p class="empty">No instance has written a heartbeat.</p></section>`;
  const rows = report.instances.map(
    (i) =>
      `<tr data-instance="${h(i.instanceId)}" data-verdict="${h(i.verdict)}"><td><code>${h(i.instanceId)}</code></td><td>${h(when(i.startedAt))}</td><td class="last-beat">${h(when(i.lastBeatAt))}</td>${verdictCell(i.verdict, i.reason)}</tr>`,
  );
  return `<section class="instances"><h2>Instances</h2>${bound}<table><thead><tr><th>Instance</th><th>Started</th><th>Last beat</th><th>Verdict</th><th>Why</th></tr></thead><tbody>${rows.join("")}</tbody></table></section>`;
}
