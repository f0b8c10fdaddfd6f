// `/js/platform-releases-page.js`: the prompt releases console page's forms and buttons.
// The release API takes JSON only, so this script is what makes the page act:
// - the transition form (`#release-transition-form`) posts its fields as JSON to `data-url`, with
//   `?dryRun=true` for its Preview button; the rollback form (`#release-rollback-form`) likewise;
// - the Ratify and Revert buttons of an emergency stop (`[data-approve]`) post to their `data-url`;
// - the transition form's canary fields (`fieldset.canary-fields`) show only for target CANARY and are
//   sent only then (the percent as a number, the lists split at commas);
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
  canary?: { canaryPercent?: unknown; canaryTenants?: unknown; canaryResourceFamilies?: unknown };
}

/** A receipt's canary share as one line: `canary: 10% of requesters; tenants a, b`. */
function canaryLine(canary: NonNullable<Answer["canary"]>): string {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(str).filter(Boolean).join(", ") : "");
  const percent = canary.canaryPercent;
  const parts = [
    typeof percent === "number" ? `${percent}% of requesters` : "whole scope (no share set)",
    list(canary.canaryTenants) && `tenants ${list(canary.canaryTenants)}`,
    list(canary.canaryResourceFamilies) && `families ${list(canary.canaryResourceFamilies)}`,
  ];
  return `canary: ${parts.filter(Boolean).join("; ")}`;
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

const CANARY_LISTS = new Set(["canaryTenants", "canaryResourceFamilies"]);
const CANARY_FIELDS = new Set(["canaryPercent", ...CANARY_LISTS]);

/** A canary field's JSON: the percent as a number (as typed: the API refuses what is not one), a list split at commas. */
function canaryValue(name: string, value: string): unknown {
  if (CANARY_LISTS.has(name))
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return value.trim() === "" ? value : Number(value);
}

/**
 * The form's fields as the API's JSON: text fields as they are (blank scope left out), checkboxes as
 * booleans; the canary fields only when the target is CANARY and they are filled in.
 */
function jsonOf(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const target = form.querySelector<HTMLSelectElement>("select[name=targetReleaseStatus]")?.value;
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name)
      continue;
    if (CANARY_FIELDS.has(element.name)) {
      if (target === "CANARY" && element.value.trim() !== "")
        body[element.name] = canaryValue(element.name, element.value);
    } else if (element instanceof HTMLInputElement && element.type === "checkbox")
      body[element.name] = element.checked;
    else if (element.value !== "" || element.name !== "registryScope") body[element.name] = element.value;
  }
  return body;
}

/** Shows the transition form's canary fields only while its target is CANARY. */
function toggleCanaryFields(form: HTMLFormElement | null): void {
  const fields = form?.querySelector<HTMLFieldSetElement>("fieldset.canary-fields");
  const target = form?.querySelector<HTMLSelectElement>("select[name=targetReleaseStatus]");
  if (fields && target) fields.hidden = target.value !== "CANARY";
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
    if (answer.canary) lines.push(canaryLine(answer.canary));
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
  const transitionForm = document.querySelector<HTMLFormElement>("#release-transition-form");
  transitionForm?.addEventListener("change", () => toggleCanaryFields(transitionForm));
  toggleCanaryFields(transitionForm);
  enhanceConvergence();
  page.dataset.enhanced = "true";
}
