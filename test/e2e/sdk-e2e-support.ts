import type { RouteRegistry } from "@keyward/adapters-http";
import {
  antMatcher,
  csrfMetaTags,
  currentAuthentication,
  notMatcher,
  orMatcher,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import type { HttpExchange } from "@keyward/core/web";
import type { Frame, Page, Request } from "playwright-core";
import { expect } from "vitest";
import type { BuiltSdkFile } from "../../packages/sdk-browser/build/build-sdk.js";
import { PASSKEY_PATHS } from "../identity/mfa/mfa-test-support.js";

// Shared by the SDK's browser tests: the built files as routes, an application page, application
// resources behind step-up (and ones answering their own refusals), and request/navigation logs.

/** How recent the factor must be on the step-up routes (as in the demo). */
export const STEP_UP_MAX_AGE_MS = 5 * 60_000;

/**
 * The demo's chains with the passkey factor added to the MFA flow: form primary with a session for
 * the pages (step-up on `/account/**`), REST with JWTs for `/api/**` (step-up on `/api/account/**`),
 * and the passkey chain (registration at `/passkeys`, passkey sign-in at `/login/webauthn`).
 */
export function stepUpSecurity(r: SecurityRegistry): SecurityConfiguration {
  const claimed = orMatcher(antMatcher("/api/**"), ...PASSKEY_PATHS.map((p) => antMatcher(p)));
  return r
    .mfa((m) =>
      m
        .primaryAuthentication((p) => p.formLogin((f) => f.defaultSuccessUrl("/")))
        .ott()
        .passkey()
        .requiredFactors(1)
        .rawHttp((h) =>
          h
            .securityMatcher(orMatcher(notMatcher(claimed), antMatcher("/api/me"), antMatcher("/api/mfa/**")))
            .authorizeHttpRequests((a) => a.requestMatchers("/account/**").recentFactor(STEP_UP_MAX_AGE_MS)),
        ),
    )
    .session()
    .rest((x) =>
      x.rawHttp((h) =>
        h
          .securityMatcher("/api/**")
          .authorizeHttpRequests((a) =>
            a.requestMatchers("/api/account/**").recentFactor(STEP_UP_MAX_AGE_MS),
          ),
      ),
    )
    .oauth2()
    .passkey((p) => p.defaultSuccessUrl("/").rawHttp((h) => h.securityMatcher(...PASSKEY_PATHS)))
    .session()
    .build();
}

/** Serves every built file at `/js/<name>` (the test server has no static route of its own). */
export function jsRoutes(files: readonly BuiltSdkFile[]): (r: RouteRegistry) => void {
  return (r) => {
    for (const f of files) {
      r.add({
        method: "GET",
        path: `/js/${f.name}`,
        handler: (ex: HttpExchange) => {
          ex.response.headers.set("content-type", "text/javascript; charset=utf-8");
          ex.response.body = f.contents;
          ex.response.committed = true;
        },
      });
    }
  };
}

/** How often each application route was reached (past the security chain), by `METHOD path`. */
export type RouteHits = Map<string, number>;

/**
 * The application: `GET /app` (a page with the CSRF meta tags and the SDK), step-up resources
 * (`GET`/`POST /account/data|a|b|c|transfer`, the same under `/api/account/`) answering who and
 * with which factors plus the JSON body they got, an application's own 403 (`/app/forbidden`) and a
 * platform refusal no factor clears (`/app/blocked`: 403 AUTHENTICATION_BLOCKED).
 */
export function appRoutes(hits: RouteHits): (r: RouteRegistry) => void {
  const count = (ex: HttpExchange): void => {
    const key = `${ex.method} ${ex.path}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
  };
  const resource = async (ex: HttpExchange) => {
    count(ex);
    const who = currentAuthentication(ex);
    return {
      ok: true,
      username: who?.username ?? null,
      factors: who?.factors.map((f) => f.type) ?? [],
      got: ex.method === "POST" ? await ex.fields(["json"]) : null,
    };
  };
  return (r) => {
    r.add({
      method: "GET",
      path: "/app",
      handler: async (ex: HttpExchange) =>
        ex.html(
          200,
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
${await csrfMetaTags(ex)}
<script src="/js/platform-mfa-sdk.js"></script>
</head><body><h1 id="appTitle">Account</h1><div id="appMarker">app</div></body></html>`,
        ),
    });
    for (const base of ["/account", "/api/account"]) {
      for (const name of ["data", "a", "b", "c"])
        r.add({ method: "GET", path: `${base}/${name}`, handler: resource });
      r.add({ method: "POST", path: `${base}/transfer`, handler: resource });
    }
    r.add({
      method: "GET",
      path: "/app/forbidden",
      handler: (ex: HttpExchange) => {
        count(ex);
        ex.json(403, { error: "This document belongs to someone else" });
      },
    });
    r.add({
      method: "GET",
      path: "/app/blocked",
      handler: (ex: HttpExchange) => {
        count(ex);
        throw new PlatformError("AUTHENTICATION_BLOCKED", "Blocked by policy");
      },
    });
    r.add({ method: "GET", path: "/blocked-info", handler: () => ({ blocked: true }) });
  };
}

/** One request the page sent by script (fetch or XHR), as the browser logged it. */
export interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Logs the page's script requests whose path starts with one of `prefixes`. */
export function logRequests(page: Page, ...prefixes: string[]): { requests: LoggedRequest[]; stop(): void } {
  const requests: LoggedRequest[] = [];
  const listener = (request: Request): void => {
    const path = new URL(request.url()).pathname;
    if (request.isNavigationRequest() || !prefixes.some((p) => path.startsWith(p))) return;
    requests.push({ method: request.method(), path, headers: request.headers(), body: request.postData() });
  };
  page.on("request", listener);
  return { requests, stop: () => page.off("request", listener) };
}

/** Records the main frame's navigations (a step-up completed in place records none). */
export function logNavigations(page: Page): { urls: string[]; stop(): void } {
  const urls: string[] = [];
  const listener = (frame: Frame): void => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  };
  page.on("framenavigated", listener);
  return { urls, stop: () => page.off("framenavigated", listener) };
}

/** The overlay's selectors (Playwright's CSS engine reaches into its open shadow root). */
export const OVERLAY = {
  host: "#platform-mfa-step-up",
  code: "#platform-mfa-step-up #stepUpCode",
  verify: "#platform-mfa-step-up #stepUpVerify",
  resend: "#platform-mfa-step-up #stepUpResend",
  passkey: "#platform-mfa-step-up #stepUpPasskey",
  cancel: "#platform-mfa-step-up #stepUpCancel",
  status: "#platform-mfa-step-up #stepUpStatus",
} as const;

/** Signs in with the password on the MFA login page (the page script) and waits for `/`. */
export async function passwordSignIn(
  page: Page,
  base: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${base}/login`);
  await page.fill("#username", username);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
}

/** Opens `/app` and leaves a marker that only survives if the page is never reloaded or left. */
export async function openApp(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/app`);
  await page.evaluate(() => {
    (globalThis as unknown as { __marker: string }).__marker = "kept";
  });
}

/** The page is the same document it was: marker intact, URL unchanged, no main-frame navigation. */
export async function expectNoNavigation(
  page: Page,
  base: string,
  navigations: { urls: string[] },
): Promise<void> {
  expect(navigations.urls).toEqual([]);
  expect(page.url()).toBe(`${base}/app`);
  expect(await page.evaluate(() => (globalThis as unknown as { __marker?: string }).__marker)).toBe("kept");
}

/** An XMLHttpRequest as the page functions use it (the Node program has no DOM types). */
export interface PageXhr {
  readyState: number;
  status: number;
  responseText: string;
  response: unknown;
  responseType: string;
  onreadystatechange: (() => void) | null;
  onload: (() => void) | null;
  onloadend: (() => void) | null;
  addEventListener(type: string, listener: () => void): void;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body?: string): void;
}

/** The browser globals the page functions use, typed for the Node program (which has no DOM lib). */
export interface PageGlobals {
  document: {
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    getElementById(id: string): { getAttribute(name: string): string | null } | null;
    addEventListener(type: string, listener: () => void): void;
  };
  sessionStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  XMLHttpRequest: new () => PageXhr;
  navigator: { credentials: { get(options?: { mediation?: string }): Promise<unknown> } };
  MutationObserver: new (
    callback: () => void,
  ) => { observe(target: unknown, options: Record<string, unknown>): void };
  DOMException: new (message: string, name: string) => Error;
}
