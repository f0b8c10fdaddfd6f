// The releases page's "Refresh the verdicts" button (`#convergence-refresh`): fetches the
// convergence report (`data-url`, with the page's own `registryScope`) and rewrites, as text, the
// verdict, reason, last beat and served bundles of every instance row already on the page (the
// Instances table and each scope's table). An instance the page does not list yet is counted and a
// reload offered. State for tests: `data-state` on `#convergence-status` (`done` or `error`).

/** The parts of the convergence report (`ConvergenceReportJson`) this script reads. */
interface Report {
  generatedAt?: number;
  instances?: {
    instanceId?: string;
    lastBeatAt?: number;
    verdict?: string;
    reason?: string;
    scopes?: {
      registryScope?: string;
      promptKey?: string;
      verdict?: string;
      reason?: string;
      serving?: { promptVersion?: string; bundleHash?: string; source?: string }[];
    }[];
  }[];
}

type Instance = NonNullable<Report["instances"]>[number];
type Scope = NonNullable<Instance["scopes"]>[number];

const str = (v: unknown) => (typeof v === "string" ? v : "");
const when = (at: unknown) =>
  typeof at === "number" && Number.isFinite(at) ? new Date(at).toISOString().replace(".000Z", "Z") : "";

function setText(row: Element, selector: string, text: string): void {
  const cell = row.querySelector(selector);
  if (cell) cell.textContent = text;
}

function setVerdict(row: HTMLElement, verdict: string, reason: string, lastBeatAt: unknown): void {
  row.dataset.verdict = verdict;
  const badge = row.querySelector(".verdict");
  if (badge) {
    badge.textContent = verdict;
    badge.className = `verdict verdict-${verdict.toLowerCase()}`;
  }
  setText(row, ".reason", reason);
  setText(row, ".last-beat", when(lastBeatAt));
}

/** A scope row takes the instance's verdict when the instance is SILENT or NOT_FOLLOWING, as the server renders it. */
function updateScopeRow(row: HTMLElement, instance: Instance, scope: Scope): void {
  const own = instance.verdict === "SILENT" || instance.verdict === "NOT_FOLLOWING";
  const verdict = str(own ? instance.verdict : scope.verdict);
  setVerdict(row, verdict, str(own ? instance.reason : scope.reason), instance.lastBeatAt);
  const served = (scope.serving ?? [])
    .map((e) => `${str(e.source)} ${str(e.promptVersion)} ${str(e.bundleHash).slice(0, 12)}`)
    .join(", ");
  setText(row, ".serves", served);
}

/** Rewrites the rows of the page from `report`; answers how many instances have no row here. */
export function applyConvergence(report: Report, root: ParentNode = document): number {
  let missing = 0;
  for (const instance of report.instances ?? []) {
    const id = str(instance.instanceId);
    let seen = false;
    for (const row of Array.from(root.querySelectorAll<HTMLElement>("tr[data-instance]"))) {
      if (row.dataset.instance !== id) continue;
      seen = true;
      const section = row.closest<HTMLElement>(".convergence[data-scope]");
      if (!section) {
        setVerdict(row, str(instance.verdict), str(instance.reason), instance.lastBeatAt);
        continue;
      }
      const scope = (instance.scopes ?? []).find(
        (s) => s.registryScope === section.dataset.scope && s.promptKey === row.dataset.promptKey,
      );
      if (scope) updateScopeRow(row, instance, scope);
    }
    if (!seen) missing += 1;
  }
  return missing;
}

function status(text: string, state: "done" | "error"): void {
  const el = document.getElementById("convergence-status");
  if (!el) return;
  el.textContent = text;
  el.dataset.state = state;
}

async function refresh(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    const scope = new URLSearchParams(location.search).get("registryScope");
    const url = `${button.dataset.url ?? ""}${scope ? `?registryScope=${encodeURIComponent(scope)}` : ""}`;
    const response = await fetch(url, {
      headers: { accept: "application/json" },
      credentials: "same-origin",
    });
    const report = (await response.json().catch(() => ({}))) as Report & { code?: unknown };
    if (!response.ok)
      return status(`Refresh failed: ${str(report.code) || `HTTP ${response.status}`}`, "error");
    const missing = applyConvergence(report);
    const more = missing === 0 ? "" : ` ${missing} instance(s) not listed here: reload the page.`;
    status(`Updated at ${when(report.generatedAt)}.${more}`, "done");
  } catch (error) {
    status(`Refresh failed: ${error instanceof Error ? error.message : "the call failed"}`, "error");
  } finally {
    button.disabled = false;
  }
}

/** Wires the refresh button, when the page has one. */
export function enhanceConvergence(): void {
  const button = document.getElementById("convergence-refresh");
  if (button instanceof HTMLButtonElement) button.addEventListener("click", () => void refresh(button));
}
