import { escapeHtml as e } from "../web/html-escape.js";
import type { ShadowLink } from "./policy-preview-shadows.js";
import type { PolicyPreview, SimulationPreview } from "./policy-preview.js";

function expressions(map: Partial<Record<string, string>>): string {
  return Object.entries(map)
    .map(
      ([type, text]) => `<li><span class="target-type">${e(type)}</span> <code>${e(text ?? "")}</code></li>`,
    )
    .join("");
}

function simulation(s: SimulationPreview | null): string {
  if (!s) return "<p>No URL target: the simulator judges URL requests only.</p>";
  const who = s.subject
    ? `${s.subject.username} (${s.subject.authorities.join(", ") || "no authorities"})`
    : "anonymous";
  const verdict = s.decision.granted ? "granted" : "denied";
  const by = s.decidedByDraft
    ? "by this policy"
    : s.decision.policyName
      ? `by '${s.decision.policyName}'`
      : "";
  const trail = s.trail
    .map(
      (t) =>
        `<tr><td>${e(t.name)}</td><td>${e(String(t.priority))}</td><td>${e(t.effect)}</td><td><code>${e(t.expression)}</code></td><td>${e(t.conditionHolds === undefined ? "-" : String(t.conditionHolds))}</td><td>${e(t.outcome)}</td></tr>`,
    )
    .join("");
  return `<p id="preview-decision" class="decision ${verdict}"><code>${e(s.method)} ${e(s.path)}</code> as ${e(who)}: <strong>${verdict}</strong> ${e(by)} (${e(s.decision.reason)}; ${e(s.algorithm)})</p>
${trail ? `<table class="trail"><thead><tr><th>Policy</th><th>Priority</th><th>Effect</th><th>Expression</th><th>Holds</th><th>Part</th></tr></thead><tbody>${trail}</tbody></table>` : "<p>No policy's target matched.</p>"}`;
}

function links(list: readonly ShadowLink[], empty: string, entirely: string): string {
  if (list.length === 0) return `<p>${e(empty)}</p>`;
  const items = list
    .map(
      (l) =>
        `<li>${e(l.name)} (priority ${e(String(l.priority))}, ${e(l.effect)}) on <code>${e(l.targets.join(", "))}</code>${l.entirely ? ` <strong>${e(entirely)}</strong>` : ""}</li>`,
    )
    .join("");
  return `<ul>${items}</ul>`;
}

/** The preview part of the create tab: expressions, the simulator's answer, the impact. Escaped. */
export function renderPolicyPreview(p: PolicyPreview): string {
  const rules = p.rules.map((r) => `<li>${e(r.name)}<ul>${expressions(r.expressions)}</ul></li>`).join("");
  const resources = p.impact.resources
    .map(
      (r) =>
        `<li>${e(r.friendlyName)} <code>${e(r.resourceType === "URL" ? `${r.httpMethod ?? "ANY"} ${r.resourceIdentifier}` : r.resourceIdentifier)}</code> · ${e(r.status)} · ${e(r.relation)}</li>`,
    )
    .join("");
  const algorithm = p.impact.algorithm;
  const shadowNote =
    algorithm === "FIRST_APPLICABLE"
      ? ""
      : `<p>Under ${e(algorithm)} every matching policy is considered: no policy shadows another.</p>`;
  return `<section class="policy-preview" id="policy-preview" aria-labelledby="preview-heading">
<h2 id="preview-heading">Preview</h2>
<h3>Expressions</h3>
<ul class="expressions">${expressions(p.expressions)}</ul>
${rules ? `<p>By rule:</p><ol class="rule-expressions">${rules}</ol>` : "<p>No rules: the policy always applies.</p>"}
<h3>Simulator</h3>
${simulation(p.simulation)}
<h3>Impact</h3>
<h4>Managed resources its targets match</h4>
${resources ? `<ul class="impact-resources">${resources}</ul>` : "<p>None.</p>"}
<h4>Shadowed by (evaluated first)</h4>
${shadowNote}${links(p.impact.shadowedBy, "No earlier policy covers its targets.", "this policy would never decide")}
<h4>Shadows (evaluated after it)</h4>
${links(p.impact.shadows, "It covers no later policy's targets.", "that policy would never decide")}
</section>`;
}
