// `/js/platform-passkeys-page.js`: the built-in passkey page (`GET /passkeys`). Standalone (it does not
// need `window.PlatformMFA`): it reads its endpoints from `#platform-page-config`, sends the page's
// CSRF token (meta `_csrf`, header named by meta `_csrf_header`, else `X-CSRF-TOKEN`) on every POST
// and DELETE, and implements: register a passkey, list and delete passkeys, sign in with a passkey
// (modal, with an optional username), and autofill sign-in (conditional mediation) on
// `#passkeyUsername`, aborted before a modal ceremony starts. State for tests: `data-conditional` on
// the config element (`unavailable`, `pending`, `aborted`, `error`, `done`), `data-count` on
// `#passkeyList`, `data-kind` on `#passkeyStatus` (`info`, `success`, `error`).
import type {
  AuthenticationAnswerFields,
  PasskeyCredentialSummary,
  PasskeyRegisteredAnswer,
  PasskeyRegistrationBody,
  PublicKeyCreationOptionsJson,
  PublicKeyRequestOptionsJson,
} from "@keyward/core/wire";
import { isLocalUrl } from "../local-redirect.js";
import {
  assertionJson,
  creationOptions,
  type PasskeyRequestError,
  registrationJson,
  requestOptions,
} from "./passkeys-page-json.js";

type StatusKind = "info" | "success" | "error";
type Method = "GET" | "POST" | "DELETE";

/** One running autofill ceremony: aborted (and awaited) before a modal one starts. */
interface ConditionalRun {
  controller: AbortController;
  done: Promise<void>;
}

const config = document.getElementById("platform-page-config");
const data: Record<string, string | undefined> = config?.dataset ?? {};
const urls = {
  assertionOptions: data.assertionOptionsUrl || "/webauthn/authenticate/options",
  login: data.loginUrl || "/login/webauthn",
  registerOptions: data.registerOptionsUrl || "/webauthn/register/options",
  register: data.registerUrl || "/webauthn/register",
  credentials: data.credentialsUrl || "/webauthn/credentials",
};
const signedIn = data.authenticated === "true";
let conditional: ConditionalRun | null = null;

function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

function setState(name: string, value: string): void {
  config?.setAttribute(`data-${name}`, value);
}

function status(text: string, kind: StatusKind = "info"): void {
  const el = byId("passkeyStatus");
  if (!el) return;
  el.textContent = text;
  el.setAttribute("data-kind", kind);
}

function meta(name: string): string | null {
  const el = document.querySelector(`meta[name="${name}"]`);
  return el ? el.getAttribute("content") : null;
}

function supported(): boolean {
  return !!(window.PublicKeyCredential && navigator.credentials);
}

/** A JSON request with the page's CSRF token on unsafe methods; a non-2xx answer throws its message and code. */
async function call<T>(method: Method, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method !== "GET") {
    const token = meta("_csrf");
    if (token) headers[meta("_csrf_header") || "X-CSRF-TOKEN"] = token;
  }
  const init: RequestInit = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let payload: Record<string, unknown> | null = null;
  if (text) {
    try {
      payload = JSON.parse(text) as Record<string, unknown>;
    } catch {
      payload = null;
    }
  }
  if (!res.ok) {
    const error = new Error(
      String((payload && (payload.error || payload.message)) || `Request failed (${res.status})`),
    ) as PasskeyRequestError;
    error.status = res.status;
    error.code = payload ? (payload.code as string | undefined) : undefined;
    throw error;
  }
  return payload as T;
}

function message(error: unknown): string {
  const e = error as { name?: string; message?: string } | null;
  if (e?.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
  if (e?.name === "InvalidStateError") return "This authenticator already holds a passkey for your account.";
  return e?.message || "Something went wrong.";
}

async function finishSignIn(credential: PublicKeyCredential): Promise<void> {
  const result = await call<AuthenticationAnswerFields | null>("POST", urls.login, assertionJson(credential));
  status("Signed in.", "success");
  const target = result?.redirectUrl;
  window.location.assign(isLocalUrl(target) ? target : "/");
}

async function stopConditional(): Promise<void> {
  const running = conditional;
  conditional = null;
  if (!running) return;
  running.controller.abort();
  await running.done;
}

function startConditional(): void {
  if (signedIn || !supported() || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") {
    setState("conditional", "unavailable");
    return;
  }
  const controller = new AbortController();
  const run: ConditionalRun = { controller, done: Promise.resolve() };
  run.done = (async () => {
    try {
      if (!(await PublicKeyCredential.isConditionalMediationAvailable())) {
        setState("conditional", "unavailable");
        return;
      }
      if (controller.signal.aborted) return;
      const options = await call<PublicKeyRequestOptionsJson>("POST", urls.assertionOptions, {});
      if (controller.signal.aborted) return;
      setState("conditional", "pending");
      const credential = (await navigator.credentials.get({
        mediation: "conditional",
        publicKey: requestOptions(options),
        signal: controller.signal,
      })) as PublicKeyCredential | null;
      if (!credential || controller.signal.aborted) return;
      if (conditional === run) conditional = null;
      setState("conditional", "done");
      status("Signing in...", "info");
      await finishSignIn(credential);
    } catch (error) {
      if (controller.signal.aborted || (error as { name?: string } | null)?.name === "AbortError") {
        setState("conditional", "aborted");
        return;
      }
      setState("conditional", "error");
      status(message(error), "error");
    }
  })();
  conditional = run;
}

async function signIn(): Promise<void> {
  const button = byId<HTMLButtonElement>("passkeySignInButton");
  const input = byId<HTMLInputElement>("passkeyUsername");
  const username = input ? input.value.trim() : "";
  if (!supported()) return status("This browser does not support passkeys.", "error");
  if (button) button.disabled = true;
  try {
    await stopConditional();
    status("Waiting for your passkey...", "info");
    const options = await call<PublicKeyRequestOptionsJson>(
      "POST",
      urls.assertionOptions,
      username ? { username } : {},
    );
    const credential = (await navigator.credentials.get({
      publicKey: requestOptions(options),
    })) as PublicKeyCredential | null;
    if (!credential) throw new Error("No passkey was chosen.");
    await finishSignIn(credential);
  } catch (error) {
    status(message(error), "error");
    startConditional();
  } finally {
    if (button) button.disabled = false;
  }
}

async function register(): Promise<void> {
  const button = byId<HTMLButtonElement>("passkeyRegisterButton");
  const input = byId<HTMLInputElement>("passkeyLabel");
  if (!supported()) return status("This browser does not support passkeys.", "error");
  if (button) button.disabled = true;
  try {
    await stopConditional();
    status("Follow your browser's prompt to create a passkey...", "info");
    const options = await call<PublicKeyCreationOptionsJson>("POST", urls.registerOptions, {});
    const credential = (await navigator.credentials.create({
      publicKey: creationOptions(options),
    })) as PublicKeyCredential | null;
    if (!credential) throw new Error("No passkey was created.");
    const body: PasskeyRegistrationBody = { response: registrationJson(credential) };
    const label = input ? input.value.trim() : "";
    if (label) body.label = label;
    const saved = await call<PasskeyRegisteredAnswer>("POST", urls.register, body);
    if (input) input.value = "";
    status(`Passkey "${saved.label}" registered.`, "success");
    await refresh();
  } catch (error) {
    status(message(error), "error");
  } finally {
    if (button) button.disabled = false;
  }
}

async function remove(id: string, label: string): Promise<void> {
  try {
    await call("DELETE", `${urls.register}/${encodeURIComponent(id)}`);
    status(`Passkey "${label}" deleted.`, "success");
    await refresh();
  } catch (error) {
    status(message(error), "error");
  }
}

function describe(c: PasskeyCredentialSummary): string {
  const parts = [`created ${new Date(c.createdAt).toLocaleString()}`];
  parts.push(c.lastUsedAt ? `last used ${new Date(c.lastUsedAt).toLocaleString()}` : "never used");
  parts.push(c.backedUp ? "backed up" : "not backed up");
  if (c.transports?.length) parts.push(c.transports.join(", "));
  return parts.join(" · ");
}

async function refresh(): Promise<void> {
  const list = byId("passkeyList");
  if (!list || !signedIn) return;
  const credentials = (await call<PasskeyCredentialSummary[] | null>("GET", urls.credentials)) || [];
  list.textContent = "";
  for (const c of credentials) {
    const item = document.createElement("li");
    item.setAttribute("data-credential-id", c.id);
    const name = document.createElement("strong");
    name.className = "passkey-label";
    name.textContent = c.label;
    const details = document.createElement("span");
    details.className = "passkey-details";
    details.textContent = ` ${describe(c)} `;
    const del = document.createElement("button");
    del.type = "button";
    del.className = "passkey-delete";
    del.textContent = "Delete";
    del.addEventListener("click", () => {
      void remove(c.id, c.label);
    });
    item.appendChild(name);
    item.appendChild(details);
    item.appendChild(del);
    list.appendChild(item);
  }
  list.setAttribute("data-count", String(credentials.length));
}

function init(): void {
  byId("passkeySignInButton")?.addEventListener("click", signIn);
  byId("passkeyRegisterButton")?.addEventListener("click", register);
  if (signedIn) {
    refresh().catch((error: unknown) => {
      status(message(error), "error");
    });
  }
  startConditional();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
