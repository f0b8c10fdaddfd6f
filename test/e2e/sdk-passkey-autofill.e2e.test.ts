import type { RouteRegistry } from "@keyward/adapters-http";
import { csrfHiddenInput, csrfMetaTags } from "@keyward/core";
import type { HttpExchange } from "@keyward/core/web";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildPlatformSdk } from "../../packages/sdk-browser/build/build-sdk.js";
import {
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  startMfaServer,
} from "../identity/mfa/mfa-test-support.js";
import {
  addVirtualAuthenticator,
  type BrowserSession,
  describeInBrowser,
  launchBrowser,
} from "./browser-harness.js";
import { jsRoutes, logRequests, type PageGlobals, passwordSignIn } from "./sdk-e2e-support.js";

// Passkey autofill (conditional mediation) on a login page driven by /js/platform-login-page.js: a
// host's page (its own markup) with `autocomplete="username webauthn"` and a modal passkey button.
// The virtual authenticator answers a waiting conditional request at once while presence is
// simulated, so presence is paused to keep it waiting.

/** A host's login page: the contract's ids and config div, an autofill field and a passkey button. */
function autofillLoginRoute(r: RouteRegistry): void {
  r.add({
    method: "GET",
    path: "/autofill-login",
    handler: async (ex: HttpExchange) =>
      ex.html(
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title>
${await csrfMetaTags(ex)}
<style>body{font-family:Georgia,serif;max-width:30rem;margin:3rem auto}form{display:flex;flex-direction:column;gap:1rem}</style>
<script src="/js/platform-mfa-sdk.js" defer></script>
<script src="/js/platform-login-page.js" defer></script>
</head><body>
<div id="platform-page-config" hidden data-token-persistence="memory" data-primary-login-processing="/login"></div>
<form id="loginForm" method="post" action="/login">
<input id="username" name="username" autocomplete="username webauthn" placeholder="Username or passkey">
<input id="password" name="password" type="password" autocomplete="current-password">
${await csrfHiddenInput(ex)}
<button id="loginButton" type="submit">Sign in</button>
<button id="passkeySignInButton" type="button">Sign in with a passkey</button>
</form><p id="loginStatus" role="status" data-platform-status></p>
</body></html>`,
      ),
  });
}

/** Records every `data-conditional` value of the page in sessionStorage (it survives the sign-in's navigation). */
async function recordAutofillStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = (): void => {
      const el = (globalThis as unknown as PageGlobals).document.getElementById("platform-page-config");
      if (!el) return;
      const push = (): void => {
        const states = JSON.parse(
          (globalThis as unknown as PageGlobals).sessionStorage.getItem("__states") ?? "[]",
        ) as string[];
        const value = el.getAttribute("data-conditional");
        if (value && states[states.length - 1] !== value) {
          states.push(value);
          (globalThis as unknown as PageGlobals).sessionStorage.setItem("__states", JSON.stringify(states));
        }
      };
      new (globalThis as unknown as PageGlobals).MutationObserver(push).observe(el, {
        attributes: true,
        attributeFilter: ["data-conditional"],
      });
    };
    (globalThis as unknown as PageGlobals).document.addEventListener("DOMContentLoaded", record);
  });
}

const states = (page: Page): Promise<string[]> =>
  page.evaluate(
    () =>
      JSON.parse(
        (globalThis as unknown as PageGlobals).sessionStorage.getItem("__states") ?? "[]",
      ) as string[],
  );

describeInBrowser("login page script: passkey autofill (conditional mediation)", () => {
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;
  let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;

  const presence = (enabled: boolean) =>
    authenticator.cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: authenticator.authenticatorId,
      enabled,
    });

  /** Signed out, then the login page opened with its autofill request waiting (presence paused). */
  async function openWaiting(page: Page): Promise<void> {
    await signOut(page);
    await presence(false);
    await page.goto(`${base}/autofill-login`);
    await page.waitForSelector('#platform-page-config[data-conditional="pending"]', { state: "attached" });
  }

  async function signOut(page: Page): Promise<void> {
    // Not from /login: the built-in login page starts its own autofill request.
    await page.goto(`${base}/csrf`);
    await page.evaluate(async () => {
      const { token } = (await (await fetch("/csrf")).json()) as { token: string };
      await fetch("/logout", { method: "POST", headers: { "X-CSRF-TOKEN": token }, redirect: "manual" });
      (globalThis as unknown as PageGlobals).sessionStorage.removeItem("__states");
    });
  }

  async function me(page: Page): Promise<Record<string, unknown>> {
    const body = await page.evaluate(async () =>
      (await fetch("/api/me", { headers: { accept: "application/json" } })).json(),
    );
    return body as Record<string, unknown>;
  }

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    server = await startMfaServer({
      outbox: newOutboxFile(),
      security: demoSecurity,
      routes: (r) => {
        jsRoutes(built.files)(r);
        autofillLoginRoute(r);
      },
    });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    authenticator = await addVirtualAuthenticator(browser.page);
    await recordAutofillStates(browser.page);
    const { page } = browser;
    await passwordSignIn(page, base, "user", "password");
    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "Autofill key");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the autofill request signs in when the user picks the passkey (usernameless, no form post)", async () => {
    const { page } = browser;
    await signOut(page);
    await presence(true);
    const log = logRequests(page, "/webauthn/", "/login");
    try {
      await Promise.all([page.waitForURL(`${base}/`), page.goto(`${base}/autofill-login`)]);
      expect(log.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /webauthn/authenticate/options",
        "POST /login/webauthn",
      ]);
      // Usernameless: the options request names nobody.
      expect(log.requests[0]?.body).toBe("{}");
    } finally {
      log.stop();
    }
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
    expect(await states(page)).toEqual(["pending", "done"]);
  });

  it("the built-in /login page (passkey chain present) offers autofill and signs in with the passkey", async () => {
    const { page } = browser;
    await signOut(page);
    await presence(false);
    await page.goto(`${base}/login`);
    expect(await page.getAttribute("#username", "autocomplete")).toBe("username webauthn");
    expect(await page.isVisible("#passkeySignInButton")).toBe(true);
    await page.waitForSelector('#platform-page-config[data-conditional="pending"]', { state: "attached" });
    await presence(true);
    await Promise.all([page.waitForURL(`${base}/`), page.click("#passkeySignInButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
  });

  it("the modal button aborts the waiting autofill request first, then signs in", async () => {
    const { page } = browser;
    await openWaiting(page);
    await presence(true);
    await Promise.all([page.waitForURL(`${base}/`), page.click("#passkeySignInButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
    expect(await states(page)).toEqual(["pending", "aborted"]);
  });

  it("a form submit aborts the autofill request before the password sign-in", async () => {
    const { page } = browser;
    await openWaiting(page);
    await page.fill("#username", "user");
    await page.fill("#password", "password");
    await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "form" });
    expect(await states(page)).toEqual(["pending", "aborted"]);
    await presence(true);
  });

  it("a cancelled modal ceremony shows why and restarts the autofill request", async () => {
    const { page } = browser;
    await openWaiting(page);
    // The user dismisses the browser's passkey dialog (the modal request only; autofill is untouched).
    await page.evaluate(() => {
      const { credentials } = (globalThis as unknown as PageGlobals).navigator;
      const original = credentials.get.bind(credentials);
      credentials.get = (options?: { mediation?: string }) =>
        options?.mediation === "conditional"
          ? original(options)
          : Promise.reject(
              new (globalThis as unknown as PageGlobals).DOMException(
                "The user dismissed the dialog",
                "NotAllowedError",
              ),
            );
    });
    await page.click("#passkeySignInButton");
    await expect.poll(() => page.textContent("#loginStatus")).toMatch(/cancelled or timed out/);
    await page.waitForSelector('#platform-page-config[data-conditional="pending"]', { state: "attached" });
    expect(await states(page)).toEqual(["pending", "aborted", "pending"]);
    expect(await page.isEnabled("#passkeySignInButton")).toBe(true);
    expect(page.url()).toBe(`${base}/autofill-login`);
    await presence(true);
  });
});
