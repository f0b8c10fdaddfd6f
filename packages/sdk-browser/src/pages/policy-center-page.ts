// `/js/platform-policy-center-page.js`: the Policy Center's create tab, progressively enhanced.
// Without this script every form posts and the server renders the tab again; with it:
// - the quick-grant form (`#quick-create-form`) sends its grant as JSON to `data-quick-create-url`
//   (CSRF token from the page's meta tags) and shows the answer in `#quick-create-status`;
// - Preview and a template's Add post the manual form in the background and swap in the create tab
//   the server renders (the preview, or the form with its errors), without a page load.
// Save still navigates (the server answers 303 to the policies tab). Whatever this script cannot
// explain (no answer, a refused CSRF token, a non-HTML answer) falls back to the plain form post.
// State for tests: `data-enhanced` on `.create-tab`, `data-swaps` (how many swaps) on `<main>`.

/** What the quick-create endpoint answers: the parts this page reads. */
interface QuickAnswer {
  policy?: { name?: unknown };
  resource?: { status?: unknown };
  code?: unknown;
  message?: unknown;
}

function meta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

function csrfHeaders(): Record<string, string> {
  const token = meta("_csrf");
  return token ? { [meta("_csrf_header") ?? "X-CSRF-TOKEN"]: token } : {};
}

/** The form's fields as the browser would post them, with the pressed button's `action`. */
function fieldsOf(form: HTMLFormElement, action: string): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (typeof value === "string") body.append(key, value);
  body.set("action", action);
  return body;
}

/** Posts the form the plain way, as if the button had been pressed without this script. */
function plainPost(form: HTMLFormElement, action: string): void {
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "action";
  field.value = action;
  form.append(field);
  HTMLFormElement.prototype.submit.call(form);
}

function say(text: string, kind: "ok" | "error"): void {
  const status = document.getElementById("quick-create-status");
  if (!status) return;
  status.textContent = text;
  status.dataset.kind = kind;
}

async function quickGrant(form: HTMLFormElement): Promise<void> {
  const list = (name: string) =>
    (form.elements.namedItem(name) as HTMLInputElement | null)?.value.split(/[\s,]+/).filter(Boolean) ?? [];
  const body = {
    resourceId: (form.elements.namedItem("resourceId") as HTMLInputElement | null)?.value ?? "",
    roles: list("quick.roles"),
    permissions: list("quick.permissions"),
  };
  const response = await fetch(form.dataset.quickCreateUrl ?? "", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...csrfHeaders() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as QuickAnswer;
  if (response.status === 201) {
    const status = String(answer.resource?.status ?? "");
    const shown = document.getElementById("resource-status");
    if (shown && status) shown.textContent = status;
    say(`Granted: policy '${String(answer.policy?.name ?? "")}' created; the resource is ${status}.`, "ok");
    return;
  }
  if (typeof answer.code !== "string" || response.status >= 500 || /^CSRF/.test(answer.code)) {
    plainPost(form, "quick");
    return;
  }
  say(typeof answer.message === "string" ? answer.message : "The grant was refused.", "error");
}

async function backgroundPost(form: HTMLFormElement, action: string): Promise<void> {
  // `form.action` would be the buttons named `action`: the attribute is the URL.
  const response = await fetch(form.getAttribute("action") ?? "", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
    body: fieldsOf(form, action),
    credentials: "same-origin",
  });
  const type = response.headers.get("content-type") ?? "";
  const page = type.startsWith("text/html")
    ? new DOMParser().parseFromString(await response.text(), "text/html")
    : null;
  const fresh = page?.querySelector(".create-tab");
  const current = document.querySelector(".create-tab");
  if (!fresh || !current || response.redirected) {
    plainPost(form, action);
    return;
  }
  current.replaceWith(document.adoptNode(fresh));
  enhance();
  const main = document.querySelector("main");
  if (main) main.dataset.swaps = String(Number(main.dataset.swaps ?? "0") + 1);
  (document.getElementById("policy-preview") ?? document.querySelector(".form-error"))?.scrollIntoView();
}

function onSubmit(event: SubmitEvent): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const action = (event.submitter as HTMLButtonElement | null)?.value ?? "preview";
  const background =
    form.id === "quick-create-form"
      ? action === "quick" && form.dataset.quickCreateUrl
        ? () => quickGrant(form)
        : undefined
      : form.id === "manual-policy-form" && (action === "preview" || action.startsWith("template:"))
        ? () => backgroundPost(form, action)
        : undefined;
  if (!background) return;
  event.preventDefault();
  background().catch(() => plainPost(form, action));
}

function enhance(): void {
  const tab = document.querySelector<HTMLElement>(".create-tab");
  if (tab) tab.dataset.enhanced = "true";
}

// Only on the create tab: anywhere else the script does nothing.
if (document.querySelector(".create-tab")) {
  document.addEventListener("submit", onSubmit);
  enhance();
}
