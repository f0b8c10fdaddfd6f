import { escapeHtml as h } from "../../web/html-escape.js";
import { approveApiOf, RELEASE_ROLLBACK_API, RELEASE_TRANSITION_API } from "../admin/release-admin-paths.js";
import type {
  ReleaseHistoryEntry,
  ReleaseRow,
  ReleaseScopeHead,
  RollbackExecution,
} from "../registry/release-registry.js";
import { RELEASE_STATES } from "../registry/release-state.js";
import type { GateBlocker } from "../release-governance.js";
import { describeCanaryShare, MAX_CANARY_TARGETS } from "../transitions/canary-share.js";
import {
  type ConvergenceOnPage,
  renderInstancesSection,
  renderScopeConvergence,
} from "./convergence-view.js";

/** The dry-run answer for one allowed next state of one release. */
export interface NextStatePreview {
  readonly target: string;
  /** Empty: the gate would let it through. */
  readonly blockers: readonly GateBlocker[];
}

/** What the releases page shows. */
export interface ReleasesView {
  readonly heads: readonly ReleaseScopeHead[];
  /** By `scope|promptKey|version`: the next allowed states with their dry-run blockers. */
  readonly previews: ReadonlyMap<string, readonly NextStatePreview[]>;
  readonly history: readonly ReleaseHistoryEntry[];
  /** The administrator looking at the page (their own emergency stops show no approval buttons). */
  readonly viewer: string;
  /** The convergence report (each scope's executing releases, every instance's verdict); absent: not shown. */
  readonly convergence?: ConvergenceOnPage;
  /** Which selector this instance's decisions run (`prompt-bundle.selector`); absent: CONFIGURATION. */
  readonly selector?: "CONFIGURATION" | "REGISTRY" | undefined;
}

/** The key of a release in `ReleasesView.previews`. */
export function previewKey(r: Pick<ReleaseRow, "registryScope" | "promptKey" | "promptVersion">): string {
  return `${r.registryScope}|${r.promptKey}|${r.promptVersion}`;
}

const when = (at: number | undefined) =>
  at === undefined || !Number.isFinite(at) ? "" : new Date(at).toISOString().replace(".000Z", "Z");

/** A CANARY row's share and targets ("10% of requesters", "whole scope (no share set)"); other rows none. */
function canary(r: ReleaseRow): string {
  if (r.status !== "CANARY") return "";
  const whole = r.canaryPercent === undefined ? " canary-whole-scope" : "";
  return `<span class="canary-share${whole}">${h(describeCanaryShare(r))}</span>`;
}

function nextStates(previews: readonly NextStatePreview[] | undefined): string {
  if (!previews || previews.length === 0) return `<span class="hint">none (final)</span>`;
  const items = previews.map((p) => {
    const verdict =
      p.blockers.length === 0
        ? `<span class="gate-ready">ready</span>`
        : `blocked by <ul class="blockers">${p.blockers
            .map((b) => `<li><code>${h(b.code)}</code> ${h(b.detail)}</li>`)
            .join("")}</ul>`;
    return `<li data-target="${h(p.target)}">→ <strong>${h(p.target)}</strong>: ${verdict}</li>`;
  });
  return `<ul class="next-states">${items.join("")}</ul>`;
}

function releaseRow(r: ReleaseRow, previews: ReleasesView["previews"]): string {
  const approval = r.approval
    ? `${h(r.approval.by)} ${h(when(r.approval.at))}<br><span class="hint">${h(r.approval.rationale)}</span>`
    : "";
  const rollback = r.rollbackState
    ? `${h(r.rollbackState.role)} of <code>${h(r.rollbackState.executionKey)}</code> (${h(r.rollbackState.status)})`
    : "";
  return `<tr data-version="${h(r.promptVersion)}" data-status="${h(r.status)}">
<td><code>${h(r.promptKey)}</code><br><strong>${h(r.promptVersion)}</strong><br><span class="hint">${h(r.templateKey)}</span></td>
<td><span class="status status-${h(r.status.toLowerCase())}">${h(r.status)}</span></td>
<td><code title="${h(r.artifactHash)}">${h(r.artifactHash.slice(0, 12))}…</code></td>
<td>${canary(r)}</td><td>${approval}</td><td>${rollback}</td>
<td>${nextStates(previews.get(previewKey(r)))}</td></tr>`;
}

function stopItem(e: RollbackExecution, viewer: string): string {
  const unratified = e.status === "UNRATIFIED";
  const flag = unratified
    ? `<strong class="alert-flag">UNRATIFIED: past its approval deadline, still in force</strong> `
    : `<strong>AWAITING_APPROVAL</strong> until ${h(when(e.approvalDeadline))} `;
  const own = e.operator === viewer;
  const buttons = own
    ? `<p class="hint">You ran this stop: another administrator must ratify or revert it.</p>`
    : `<p class="approval-actions"><button type="button" data-approve="RATIFY" data-url="${h(approveApiOf(e.executionKey))}">Ratify</button> <button type="button" data-approve="REVERT" data-url="${h(approveApiOf(e.executionKey))}">Revert</button></p>`;
  return `<li class="emergency-stop${unratified ? " unratified" : ""}" data-execution-key="${h(e.executionKey)}"${unratified ? ' role="alert"' : ""}>
${flag}<code>${h(e.executionKey)}</code>: ${h(e.promptKey)} ${h(e.fromVersion)} → ${h(e.toVersion)} in ${h(e.registryScope)}, by ${h(e.operator)} at ${h(when(e.at))}<br><span class="hint">${h(e.reason)}</span>
${buttons}</li>`;
}

function scopeSection(head: ReleaseScopeHead, view: ReleasesView): string {
  const rows = head.releases.map((r) => releaseRow(r, view.previews)).join("\n");
  const table =
    head.releases.length === 0
      ? `<p class="empty">No releases in this scope.</p>`
      : `<table class="releases"><thead><tr><th>Release</th><th>State</th><th>Hash</th><th>Canary</th><th>Approval</th><th>Rollback</th><th>Next states (dry run)</th></tr></thead>
<tbody>${rows}</tbody></table>`;
  return `<section class="release-scope" data-scope="${h(head.registryScope)}"><h2>Scope ${h(head.registryScope)} <span class="hint">revision ${head.revision}</span></h2>
${renderScopeConvergence(head.registryScope, view.convergence)}
${table}</section>`;
}

function stopsSection(view: ReleasesView): string {
  const open = view.heads.flatMap((head) => head.openExecutions);
  if (open.length === 0)
    return `<section class="emergency-stops"><h2>Emergency stops</h2><p class="empty">None open.</p></section>`;
  const alert = open.some((e) => e.status === "UNRATIFIED")
    ? `<p class="notice error" role="alert">An emergency stop is UNRATIFIED: another administrator must ratify or revert it.</p>`
    : "";
  return `<section class="emergency-stops"><h2>Emergency stops</h2>${alert}<ul>${open.map((e) => stopItem(e, view.viewer)).join("\n")}</ul></section>`;
}

function historySection(entries: readonly ReleaseHistoryEntry[]): string {
  if (entries.length === 0)
    return `<section class="release-history"><h2>History</h2><p class="empty">Nothing recorded yet.</p></section>`;
  const rows = entries.map(
    (e) =>
      `<tr data-kind="${h(e.kind)}"><td>${h(when(e.at))}</td><td>${h(e.kind)}</td><td>${h(e.registryScope)}</td><td>${h(e.promptVersion)}</td><td>${h(e.fromStatus ?? "")}${e.toStatus && e.toStatus !== e.fromStatus ? ` → ${h(e.toStatus)}` : ""}</td><td>${e.blockers.map((b) => `<code>${h(b)}</code>`).join(" ")}</td><td>${h(e.actor)}</td><td>${h(e.rationale)}</td></tr>`,
  );
  return `<section class="release-history"><h2>History</h2><table><thead><tr><th>At</th><th>What</th><th>Scope</th><th>Version</th><th>State</th><th>Blockers</th><th>By</th><th>Rationale</th></tr></thead><tbody>${rows.join("\n")}</tbody></table></section>`;
}

const field = (label: string, input: string) => `<label>${h(label)} ${input}</label>`;
const text = (name: string, required = true, value = "") =>
  `<input type="text" name="${name}" value="${h(value)}" maxlength="128"${required ? " required" : ""}>`;

/** The transition form's CANARY fields (the page's script shows them only while the target is CANARY). */
function canaryFields(): string {
  const list = (name: string, hint: string) =>
    `<input type="text" name="${name}" maxlength="${MAX_CANARY_TARGETS * 257}" placeholder="${h(hint)}">`;
  return `<fieldset class="canary-fields" data-for-target="CANARY"><legend>Canary share (CANARY only; blank: the whole scope)</legend>
${field("Percent of requesters", `<input type="number" name="canaryPercent" min="0" max="100" step="1">`)} ${field("Tenants (comma-separated)", list("canaryTenants", "acme,globex"))} ${field("Resource families (comma-separated)", list("canaryResourceFamilies", "/api/orders,billing"))}</fieldset>`;
}

function forms(): string {
  const targets = RELEASE_STATES.map((s) => `<option value="${s}">${s}</option>`).join("");
  const transition = `<form id="release-transition-form" class="release-form" data-url="${h(RELEASE_TRANSITION_API)}">
<h3>Transition</h3>${field("Scope", text("registryScope", false, "PLATFORM_GLOBAL"))} ${field("Prompt key", text("promptKey"))} ${field("Version", text("promptVersion"))}
${field("Target", `<select name="targetReleaseStatus">${targets}</select>`)} ${field("Rationale", `<input type="text" name="rationale" maxlength="2000" required>`)}
${canaryFields()}
<button type="submit" value="preview">Preview (dry run)</button> <button type="submit" value="apply">Apply</button></form>`;
  const rollback = `<form id="release-rollback-form" class="release-form" data-url="${h(RELEASE_ROLLBACK_API)}">
<h3>Rollback or emergency stop</h3>${field("Scope", text("registryScope", false, "PLATFORM_GLOBAL"))} ${field("Prompt key", text("promptKey"))}
${field("From version", text("fromVersion"))} ${field("To version", text("toVersion"))} ${field("Reason", `<input type="text" name="reason" maxlength="2000" required>`)}
${field("Emergency stop (acts at once, another administrator approves)", `<input type="checkbox" name="emergency" value="true">`)}
<button type="submit" value="apply">Roll back</button></form>`;
  return `<section class="release-forms"><h2>Change a release</h2>
<noscript><p class="notice error">These forms need JavaScript (they call the release API with your session's CSRF token).</p></noscript>
${transition}
${rollback}
<div id="release-result" class="release-result" aria-live="polite"></div></section>`;
}

/**
 * Whether this registry decides what live decisions run: with `prompt-bundle.selector=CONFIGURATION`
 * (the default) decisions run the configured bundle whatever is ACTIVE here; with REGISTRY they follow
 * it within the cache bound.
 */
function enforcementNote(selector: ReleasesView["selector"]): string {
  return selector === "REGISTRY"
    ? `<p class="notice releases-enforcement" role="note">Decisions follow this registry (<code>platform.security.tiered.prompt-bundle.selector=REGISTRY</code>): a change to ACTIVE or CANARY, a rollback and an emergency stop change which bundle live decisions run on every instance within the cache bound (the Instances section shows each one's convergence).</p>`
    : `<p class="notice releases-enforcement" role="note">Decisions do not follow this registry: this instance runs the configuration selector (<code>platform.security.tiered.prompt-bundle.selector=CONFIGURATION</code>, the default), which runs the bundle <code>platform.security.tiered.prompt-bundle.active</code> names (blank: the build default), so ACTIVE, CANARY and an emergency stop recorded here do not change which bundle live decisions use. Set the selector to REGISTRY to have them follow it.</p>`;
}

/**
 * The releases page body: emergency stops first (an UNRATIFIED one loudly), the instances' convergence,
 * each scope's executing releases, instances and releases, the forms, the history.
 */
export function renderReleasesBody(view: ReleasesView): string {
  const scopes =
    view.heads.length === 0
      ? `<p class="empty">The registry has no releases yet.</p>`
      : view.heads.map((head) => scopeSection(head, view)).join("\n");
  return `<div class="releases-page">
${enforcementNote(view.selector)}
${stopsSection(view)}
${renderInstancesSection(view.convergence)}
${scopes}
${forms()}
${historySection(view.history)}
</div>`;
}
