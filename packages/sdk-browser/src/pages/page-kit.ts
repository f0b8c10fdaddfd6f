// What the four page scripts share: the page's SDK client, its status line, busy buttons, the answers
// they follow and the plain-form fallback. Bundled into each page script (a few hundred bytes); the SDK
// itself comes from `window.PlatformMFA` (`/js/platform-mfa-sdk.js`, loaded first with `defer`).
import type { Client } from "../client.js";
import type { PlatformMfaGlobal } from "../global.js";
import { isLocalUrl } from "../local-redirect.js";
import { PAGE_CONFIG_ID, readPageConfig } from "../page-config.js";
import type { AuthenticationResult, MfaConfigOverrides } from "../types.js";

/** A failed SDK request as the page script reads it (a PlatformMfaError of the page's SDK, by shape). */
export interface Failure {
  code: string;
  status: number;
  message: string;
  body: AuthenticationResult;
}

/** The texts the scripts show. */
export const TEXT = {
  signingIn: "Signing in…",
  signedIn: "Signed in. Redirecting…",
  nextStep: "Continuing to the next step…",
  sending: "Sending a code…",
  sent: "A new code was sent.",
  verifying: "Checking the code…",
  passkey: "Waiting for your passkey…",
  review: "Your sign-in is waiting for an administrator's review. This page will continue by itself.",
  failed: "That did not work. Please try again.",
} as const;

/** SDK codes that mean no usable answer came (the plain form may still work). */
const NO_ANSWER = /^(NETWORK_ERROR|UNEXPECTED_RESPONSE|MALFORMED_RESPONSE|INVALID_URL|HTTP_\d+|CSRF_.*)$/;

/** The failure behind a rejection, when it is a PlatformMfaError (of any copy of the SDK). */
export function failureOf(error: unknown): Failure | undefined {
  if (!(error instanceof Error) || error.name !== "PlatformMfaError") return undefined;
  const e = error as Error & { code?: unknown; status?: unknown; body?: unknown };
  if (typeof e.code !== "string") return undefined;
  const body = typeof e.body === "object" && e.body !== null ? (e.body as AuthenticationResult) : {};
  return { code: e.code, status: typeof e.status === "number" ? e.status : 0, message: e.message, body };
}

/**
 * True when nothing the page can explain happened: a script error, no answer (network), a non-JSON
 * or server-error answer, an answer without a platform code, a CSRF refusal (the form's hidden
 * `_csrf` may still pass). Then the plain form is the better way.
 */
export function isUnexpected(failure: Failure | undefined): boolean {
  return (
    failure === undefined || failure.status === 0 || failure.status >= 500 || NO_ANSWER.test(failure.code)
  );
}

/** `window.PlatformMFA`, when the SDK script loaded. */
export function platformSdk(): PlatformMfaGlobal | undefined {
  const sdk = (globalThis as { PlatformMFA?: PlatformMfaGlobal }).PlatformMFA;
  return sdk && typeof sdk.Client === "function" ? sdk : undefined;
}

/** An element of the page contract by id, when it is of the expected kind. */
export function byId<T extends HTMLElement>(id: string, kind: { new (): T; prototype: T }): T | undefined {
  const el = document.getElementById(id);
  return el instanceof kind ? el : undefined;
}

/** A form's action as a local path (its raw attribute; the page's own path when empty). */
export function formAction(form: HTMLFormElement): string | undefined {
  return localPath(form.getAttribute("action") || location.pathname);
}

/** A field's value by its contract name (`username`, `password`, `token`). */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const field = form.elements.namedItem(name);
  return field instanceof HTMLInputElement ? field.value : "";
}

/** `url` as a path of this origin (`/x?y#z`), also from a same-origin absolute URL; else undefined. */
export function localPath(url: unknown): string | undefined {
  if (typeof url !== "string" || url === "") return undefined;
  if (isLocalUrl(url)) return url;
  try {
    const u = new URL(url, location.href);
    const path = u.pathname + u.search + u.hash;
    return u.origin === location.origin && isLocalUrl(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page's SDK client (`autoRedirect` off: the script follows every answer itself, local URLs
 * only). Its URL set: the page's `#platform-page-config` (data-mfa-config and the URL attributes)
 * over the URLs the page's forms name, over the SDK's defaults. Undefined without the SDK.
 */
export function pageClient(formUrls: MfaConfigOverrides): Client | undefined {
  const sdk = platformSdk();
  if (!sdk) return undefined;
  const config: Record<string, unknown> = {};
  for (const source of [formUrls, readPageConfig()?.config ?? {}] as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(source)) {
      const before = config[key];
      config[key] =
        isRecord(value) && isRecord(before)
          ? { ...before, ...value }
          : isRecord(value)
            ? { ...value }
            : value;
    }
  }
  return new sdk.Client({ autoInit: true, autoRedirect: false, config: config as MfaConfigOverrides });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A data attribute of `#platform-page-config` (dataset name: `attemptsMade`). */
export function pageData(name: string): string | undefined {
  return readPageConfig()?.data[name];
}

/** Updates a data attribute of `#platform-page-config`, so the page keeps describing itself. */
export function setPageData(name: string, value: string): void {
  const el = document.getElementById(PAGE_CONFIG_ID);
  if (el) el.dataset[name] = value;
}

/**
 * The page's status line: an element marked `data-platform-status`, else the first `role="status"`,
 * else a `<p role="status" aria-live="polite">` made after `after`. Progress and errors go here.
 */
export class PageStatus {
  readonly element: HTMLElement;

  constructor(after: HTMLElement) {
    let el =
      document.querySelector<HTMLElement>("[data-platform-status]") ??
      document.querySelector<HTMLElement>('[role="status"]');
    if (!el) {
      el = document.createElement("p");
      el.id = "platformPageStatus";
      el.setAttribute("role", "status");
      el.setAttribute("aria-live", "polite");
      after.insertAdjacentElement("afterend", el);
    }
    this.element = el;
  }

  /** Progress or a neutral message. */
  show(text: string): void {
    this.set(text, "progress");
  }

  /** An error message (`data-state="error"`, class `error`). */
  error(text: string): void {
    this.set(text, "error");
  }

  private set(text: string, state: "progress" | "error"): void {
    // A server-rendered error of an earlier attempt would contradict the new message.
    const stale = document.querySelector<HTMLElement>('[role="alert"]#mfaNotice');
    if (stale && stale !== this.element) stale.hidden = true;
    this.element.hidden = false;
    this.element.textContent = text;
    this.element.dataset.state = state;
    this.element.classList.toggle("error", state === "error");
  }
}

/** Submits the form the plain way (no submit event, so no loop): the server answers as without script. */
export function plainSubmit(form: HTMLFormElement): void {
  HTMLFormElement.prototype.submit.call(form);
}

/** Navigates to a local path. */
export function go(path: string): void {
  location.assign(path);
}

/** One step of a page: what it runs, and how it shows the failures it understands. */
export interface PageStep {
  form: HTMLFormElement;
  /** Disabled while the step runs. */
  buttons: readonly (HTMLButtonElement | undefined)[];
  status: PageStatus;
  /** Shown while the step runs. */
  progress: string;
  /** Sends the request and follows the answer; resolves true when the page navigates away. */
  run(): Promise<boolean>;
  /** A failure the page explains (the buttons are enabled again before). */
  failed(failure: Failure): void;
  /** What to do when something unexpected happens: the plain form submit (default), or show it. */
  onUnexpected?: "submit" | "show";
}

const running = new WeakSet<HTMLFormElement>();

/**
 * Runs a step: buttons disabled and progress shown; then the answer is followed (buttons stay
 * disabled while the browser leaves), an explained failure is shown, and anything unexpected falls
 * back to the plain form submit (unless the step says the plain form cannot work).
 */
export function runStep(step: PageStep): void {
  if (running.has(step.form)) return;
  running.add(step.form);
  const busy = (on: boolean): void => {
    for (const b of step.buttons) if (b) b.disabled = on;
    if (on) step.form.setAttribute("aria-busy", "true");
    else step.form.removeAttribute("aria-busy");
  };
  const release = (): void => {
    running.delete(step.form);
    busy(false);
  };
  busy(true);
  step.status.show(step.progress);
  const fail = (error: unknown): void => {
    const failure = failureOf(error);
    if (isUnexpected(failure) && step.onUnexpected !== "show") {
      plainSubmit(step.form);
      return;
    }
    release();
    if (failure) step.failed(failure);
    else step.status.error(TEXT.failed);
  };
  step
    .run()
    .then((left) => {
      if (!left) release();
      // Back from the next page (bfcache): the form must work again.
      else addEventListener("pageshow", (e) => e.persisted && release(), { once: true });
    })
    .catch(fail)
    .catch(() => (step.onUnexpected === "show" ? step.status.error(TEXT.failed) : plainSubmit(step.form)));
}

/**
 * Intercepts the form's submit and runs `start` instead; any error while starting lets the plain
 * form go. Without the SDK nothing is intercepted: the page works as plain forms.
 */
export function interceptSubmit(form: HTMLFormElement, start: (event: SubmitEvent) => void): void {
  form.addEventListener("submit", (event) => {
    try {
      event.preventDefault();
      start(event);
    } catch {
      plainSubmit(form);
    }
  });
}

/**
 * Follows an answer: a completed sign-in keeps its tokens (by the page's tokenPersistence) and goes
 * to its `redirectUrl`, an MFA step to its `nextStepUrl` (or the factor selection), an escalated
 * sign-in waits for the review. Only local URLs are followed (a completed sign-in whose redirectUrl is
 * elsewhere goes to `/`). `stayOn`: a path whose step keeps the page (resend on the challenge page).
 * Resolves true when the browser is leaving. Anything else throws (the caller falls back).
 */
export async function follow(
  client: Client,
  result: AuthenticationResult,
  status: PageStatus,
  stayOn?: string,
): Promise<boolean> {
  if (result.success === true) {
    client.handleAuthenticationResult(result);
    status.show(TEXT.signedIn);
    go(localPath(result.redirectUrl) ?? "/");
    return true;
  }
  if (result.mfaRequired === true) {
    const next = localPath(result.nextStepUrl) ?? localPath(result.selectFactorUrl);
    if (next !== undefined) {
      if (stayOn !== undefined && next.split(/[?#]/)[0] === stayOn) return false;
      status.show(TEXT.nextStep);
      go(next);
      return true;
    }
  }
  if (result.escalated === true) return awaitReview(client, result, status);
  throw new Error("The server's answer cannot be followed");
}

/** An escalated sign-in: polls its `statusUrl` until an administrator decides, then follows the answer. */
async function awaitReview(
  client: Client,
  result: AuthenticationResult,
  status: PageStatus,
): Promise<boolean> {
  status.show(TEXT.review);
  const url = localPath(result.statusUrl);
  if (url === undefined) return false;
  let wait = result.retryAfterSeconds;
  // Escalations expire after 30 minutes: stop polling well after that.
  for (const until = Date.now() + 40 * 60_000; Date.now() < until; ) {
    const seconds = typeof wait === "number" && wait > 0 ? Math.min(wait, 60) : 5;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const answer = await client.apiClient.send("status", url, { method: "GET" });
    if (answer.status === "PENDING") {
      wait = answer.retryAfterSeconds;
      continue;
    }
    if (answer.success === true) return follow(client, answer, status);
    go(client.apiClient.config?.primary.loginSuccess ?? "/");
    return true;
  }
  return false;
}

/** The failure page for a failure that ended the MFA flow (as the server sends browsers); else undefined. */
export function failurePageFor(client: Client, failure: Failure): string | undefined {
  const state =
    failure.code === "ACCOUNT_LOCKED" || failure.code === "MFA_ACCOUNT_LOCKED"
      ? "MFA_ACCOUNT_LOCKED"
      : failure.code === "MFA_TIMEOUT"
        ? "MFA_TIMEOUT"
        : failure.code.startsWith("MFA_SESSION")
          ? "MFA_SESSION_EXPIRED"
          : undefined;
  if (state === undefined) return undefined;
  const base = localPath(client.apiClient.config?.mfa.failure) ?? "/mfa/failure";
  return `${base}${base.includes("?") ? "&" : "?"}state=${state}`;
}

/** `message (attempts: 1 of 5)` when the failure counts attempts. */
export function withAttempts(message: string, failure: Failure): string {
  const made = failure.body.attemptsMade;
  const max = failure.body.maxAttempts;
  if (typeof made !== "number" || typeof max !== "number") return message;
  setPageData("attemptsMade", String(made));
  setPageData("maxAttempts", String(max));
  return `${message} Attempts: ${made} of ${max}.`;
}

/** Runs `main` once the document is parsed (page scripts are `defer`red, but a host may load them otherwise). */
export function whenReady(main: () => void): void {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
  else main();
}
