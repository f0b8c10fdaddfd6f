// `/js/platform-releases-page.js`: the prompt releases console page's forms and buttons.
// The release API takes JSON only, so this script is what makes the page act:
// - the transition form (`#release-transition-form`) posts its fields as JSON to `data-url`, with
//   `?dryRun=true` for its Preview button; the rollback form (`#release-rollback-form`) likewise;
// - the Ratify and Revert buttons of an emergency stop (`[data-approve]`) post to their `data-url`;
// every call carries the session's CSRF token from the page's meta tags. The answer is shown in
// `#release-result`: the outcome, each blocker or failed condition, or the refusal's code and
// message. After an applied change the page offers a reload (the lists are server-rendered).
// The convergence section's refresh button is `releases-convergence.ts`'s.
// State for tests: `data-enhanced` on `.releases-page`, `data-outcome` on `#release-result`.

import { enhanceConvergence } from "./releases-convergence.js";

/** The parts of an answer this page reads (a receipt, an execution, or an error). */
interface Answer {
  outcome?: unknown;
  dryRun?: unknown;
  status?: unknown;
  code?: unknown;
  message?: unknown;
  executionKey?: unknown;
  fromStatus?: unknown;
  targetStatus?: unknown;
  blockers?: { code?: unknown; detail?: unknown }[];
  conditions?: { code?: unknown; outcome?: unknown; detail?: unknown }[];
  issues?: { path?: unknown; message?: unknown }[];
}

function meta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

function csrfHeaders(): Record<string, string> {
  const token = meta("_csrf");
  return token ? { [meta("_csrf_header") ?? "X-CSRF-TOKEN"]: token } : {};
}

async function post(url: string, body: unknown): Promise<{ status: number; answer: Answer }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...csrfHeaders() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as Answer;
  return { status: response.status, answer };
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The form's fields as the API's JSON: text fields as they are (blank scope left out), checkboxes as booleans. */
function jsonOf(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name)
      continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox")
      body[element.name] = element.checked;
    else if (element.value !== "" || element.name !== "registryScope") body[element.name] = element.value;
  }
  return body;
}

/** Writes the answer into `#release-result` as text (never as HTML). */
function show(status: number, answer: Answer): void {
  const result = document.getElementById("release-result");
  if (!result) return;
  const lines: string[] = [];
  const outcome = str(answer.outcome) || str(answer.status) || str(answer.code) || `HTTP ${status}`;
  if (str(answer.outcome)) {
    const dry = answer.dryRun === true ? "Dry run: would be " : "";
    lines.push(`${dry}${outcome}: ${str(answer.fromStatus)} → ${str(answer.targetStatus)}`);
  } else if (str(answer.executionKey)) {
    lines.push(`${str(answer.executionKey)}: ${str(answer.status)}`);
  } else lines.push(`${outcome}: ${str(answer.message)}`);
  for (const b of answer.blockers ?? []) lines.push(`blocked by ${str(b.code)}: ${str(b.detail)}`);
  for (const c of answer.conditions ?? [])
    lines.push(`${str(c.outcome)} ${str(c.code)}${c.detail ? `: ${str(c.detail)}` : ""}`);
  for (const i of answer.issues ?? []) lines.push(`${str(i.path)}: ${str(i.message)}`);
  const list = document.createElement("ul");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  result.replaceChildren(list);
  result.dataset.outcome = outcome;
  result.dataset.kind = status < 300 ? "ok" : "error";
  if (status < 300 && answer.dryRun !== true) {
    const reload = document.createElement("a");
    reload.href = location.pathname + location.search;
    reload.textContent = "Reload the releases";
    reload.className = "reload";
    result.append(reload);
  }
}

async function submitForm(form: HTMLFormElement, action: string): Promise<void> {
  const url = form.dataset.url ?? "";
  const dryRun = form.id === "release-transition-form" && action === "preview";
  const { status, answer } = await post(dryRun ? `${url}?dryRun=true` : url, jsonOf(form));
  show(status, answer);
}

async function approve(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    const { status, answer } = await post(button.dataset.url ?? "", { action: button.dataset.approve });
    show(status, answer);
  } finally {
    button.disabled = false;
  }
}

function failed(error: unknown): void {
  show(0, { code: "NETWORK_ERROR", message: error instanceof Error ? error.message : "The call failed" });
}

const page = document.querySelector<HTMLElement>(".releases-page");
if (page) {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("release-form")) return;
    event.preventDefault();
    const action = (event.submitter as HTMLButtonElement | null)?.value ?? "apply";
    submitForm(form, action).catch(failed);
  });
  document.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest?.("button[data-approve]");
    if (button instanceof HTMLButtonElement) approve(button).catch(failed);
  });
  enhanceConvergence();
  page.dataset.enhanced = "true";
}
