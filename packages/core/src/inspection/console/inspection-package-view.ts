import type {
  InspectionFindingJson,
  InspectionPackageDetailJson,
  InspectionResultJson,
  InspectionSealJson,
} from "../../web/wire/inspection-messages.js";
import { INSPECTION_PACKAGES_PAGE_PATH } from "./inspection-console-paths.js";
import { h, shownInstant } from "./inspection-overview-view.js";

type Prompt = NonNullable<InspectionPackageDetailJson["prompts"]>[number];

function finding(f: InspectionFindingJson): string {
  const on = [f.key && `<code>${h(f.key)}</code>`, f.factId && `<code>${h(f.factId)}</code>`]
    .filter(Boolean)
    .join(" ");
  return `<li class="finding finding-${h(f.kind.toLowerCase())}" data-check="${h(f.check)}" data-reason="${h(f.reason)}"><strong>${h(f.kind)}</strong> <code>${h(f.check)}</code> <code>${h(f.reason)}</code>${on ? ` ${on}` : ""}: ${h(f.detail)}</li>`;
}

function seal(s: InspectionSealJson | null): string {
  if (s === null) return `<p class="seal">Seal: none.</p>`;
  const state = s.intact
    ? `<span class="gate-ready">intact</span>`
    : `<span class="alert-flag">not intact: <code>${h(s.reason ?? "")}</code></span>`;
  const checkpoint = s.checkpoint
    ? `, covered by the checkpoint at ${h(s.checkpoint.sequence)} (key <code>${h(s.checkpoint.kid)}</code>)`
    : ", no signed checkpoint covers it yet";
  return `<p class="seal">Seal: ${state}; chain <code>${h(s.instanceId)}</code> entry ${h(s.sequence)}${checkpoint}; package hash <code title="${h(s.packageHash)}">${h(s.packageHash.slice(0, 16))}…</code>${s.erased ? "; payload erased" : ""}.</p>`;
}

function checksTable(r: InspectionResultJson): string {
  const rows = r.checks.map(
    (c) =>
      `<tr data-check="${h(c.check)}" data-status="${h(c.status)}"><td><code>${h(c.check)}</code></td><td>${h(c.status)}</td><td class="count">${h(c.items)}</td></tr>`,
  );
  return `<table class="checks"><thead><tr><th>Check</th><th>Status</th><th>Items</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** One part of one sent prompt, line by line, each line's findings beside it. */
function promptPart(
  index: number,
  prompt: Prompt,
  part: "system" | "user",
  findings: readonly InspectionFindingJson[],
): string {
  const mine = findings.filter((f) => f.location?.prompt === index && f.location.part === part);
  const byLine = new Map<number, InspectionFindingJson[]>();
  for (const f of mine)
    if (f.location!.line !== null) byLine.set(f.location!.line, [...(byLine.get(f.location!.line) ?? []), f]);
  const whole = mine.filter((f) => f.location!.line === null);
  const lines = prompt[part].split("\n").map((text, i) => {
    const at = byLine.get(i + 1);
    const marks = at ? `<ul class="line-findings">${at.map(finding).join("")}</ul>` : "";
    return `<li value="${i + 1}" id="p${index}-${part}-${i + 1}"${at ? ' class="flagged"' : ""}><code class="prompt-line">${h(text)}</code>${marks}</li>`;
  });
  const head = `${h(prompt.layer)} ${h(part)} prompt (prompt ${index + 1})${mine.length ? `: ${mine.length} finding${mine.length === 1 ? "" : "s"}` : ""}`;
  const body = `${whole.length ? `<ul class="part-findings">${whole.map(finding).join("")}</ul>` : ""}<ol class="prompt-lines">${lines.join("")}</ol>`;
  // The system text is long and rarely flagged: folded unless a finding stands on it.
  return part === "system" && mine.length === 0
    ? `<details class="prompt-part" data-part="system" data-prompt="${index}"><summary>${head}</summary>${body}</details>`
    : `<section class="prompt-part" data-part="${h(part)}" data-prompt="${index}"><h3>${head}</h3>${body}</section>`;
}

/** The findings the prompts cannot show on a line: no location, or no prompt text (erased). */
function unplaced(d: InspectionPackageDetailJson, findings: readonly InspectionFindingJson[]): string {
  const loose = findings.filter(
    (f) => f.location === null || d.prompts === null || d.prompts[f.location.prompt] === undefined,
  );
  if (loose.length === 0) return "";
  const items = loose.map((f) => {
    const line = f.promptLine === null ? "" : `<br><code class="prompt-line">${h(f.promptLine)}</code>`;
    // A function, not a replacement string: `$&` or `$\`` in a prompt line stays text.
    return finding(f).replace(/<\/li>$/, () => `${line}</li>`);
  });
  return `<h2>Findings not shown on a line</h2><ul class="findings">${items.join("")}</ul>`;
}

/**
 * The package page's body: the verdict, versions and seal, the checks, then each sent prompt line
 * by line (numbered as the findings number them) with each finding beside the line it stands on;
 * findings of a whole part above it, findings with no place (or whose prompts were erased) listed
 * apart. Every value is escaped; a prompt is shown as text, never as markup.
 */
export function renderInspectionPackage(d: InspectionPackageDetailJson): string {
  const r = d.result;
  const back = `<p><a href="${h(INSPECTION_PACKAGES_PAGE_PATH)}">All packages</a></p>`;
  const head = `<p class="package-head">Package <code class="package-id">${h(d.packageId)}</code>, captured <time>${h(shownInstant(d.capturedAt))}</time>: ${
    r
      ? `<span class="status verdict-${h(r.verdict.toLowerCase())}">${h(r.verdict)}</span> by <code>${h(r.inspectorVersion)}</code> (dictionary <code>${h(r.dictionaryVersion)}</code>) at <time>${h(shownInstant(r.inspectedAt))}</time>`
      : `<span class="hint">not inspected yet</span>`
  }</p>`;
  const error = r?.error
    ? `<p class="notice error">Not inspected: <code>${h(r.error.code)}</code> ${h(r.error.detail)}</p>`
    : "";
  const findings = r?.findings ?? [];
  const prompts =
    d.prompts === null
      ? `<p class="hint">The prompts are no longer kept (erased or deleted): the findings are listed without their lines.</p>`
      : d.prompts
          .map((p, i) => `${promptPart(i, p, "user", findings)}${promptPart(i, p, "system", findings)}`)
          .join("\n");
  return `${back}${head}${error}${seal(d.seal)}${r ? `<h2>Checks</h2>${checksTable(r)}` : ""}
${unplaced(d, findings)}
<h2>Prompts as sent</h2>
${prompts}`;
}
