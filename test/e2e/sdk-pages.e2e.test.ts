import type { RouteRegistry } from "@keyward/adapters-http";
import { csrfHiddenInput, csrfMetaTags } from "@keyward/core";
import type { HttpExchange } from "@keyward/core/web";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BuiltSdkFile, buildPlatformSdk } from "../../packages/sdk-browser/build/build-sdk.js";
import {
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  startMfaServer,
  waitForLine,
  wrongCode,
  mfaWithPasskeySecurity,
} from "../identity/mfa/mfa-test-support.js";
import {
  addVirtualAuthenticator,
  type BrowserSession,
  describeInBrowser,
  launchBrowser,
} from "./browser-harness.js";

// The page scripts (/js/platform-login-page.js, ...) in headless Chromium on the server's own MFA
// pages and on custom pages with the same contract: every step goes through window.PlatformMFA
// (JSON requests, no full form post), errors and progress show in the page's status line.

/** Serves every built file at `/js/<name>` (the test server has no static route of its own). */
function jsRoutes(files: readonly BuiltSdkFile[]): (r: RouteRegistry) => void {
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

/** A host's own login page: other markup and CSS, the same ids, config div, hidden inputs and scripts. */
function customLoginRoute(r: RouteRegistry): void {
  r.add({
    method: "GET",
    path: "/custom-login",
    handler: async (ex: HttpExchange) => {
      ex.html(
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme sign-in</title>
${await csrfMetaTags(ex)}
<style>.card{display:grid;gap:8px;border:2px solid #0a5;padding:2rem;font-family:serif}.card button{background:#0a5;color:#fff}</style>
<script src="/js/platform-mfa-sdk.js" defer></script>
<script src="/js/platform-login-page.js" defer></script>
</head><body>
<div id="platform-page-config" hidden data-token-persistence="memory" data-select-factor-url="/mfa/select-factor"
 data-primary-login-processing="/login" data-mfa-sdk-required="false"></div>
<main class="card"><h2 id="acmeTitle">Welcome to Acme</h2>
<form id="loginForm" method="post" action="/login">
<span>Who are you?</span><input id="username" name="username" required>
<span>Secret</span><input id="password" name="password" type="password" required>
${await csrfHiddenInput(ex)}
<button id="loginButton" type="submit">Go</button>
</form>
<div id="acmeMessages" role="status" data-platform-status></div></main>
</body></html>`,
      );
    },
  });
}

/** A host's own OTT request-code page (the server's flow reaches it only between selection and sending). */
function customOttRequestRoute(r: RouteRegistry): void {
  r.add({
    method: "GET",
    path: "/custom-ott-request",
    handler: async (ex: HttpExchange) => {
      ex.html(
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme code</title>
${await csrfMetaTags(ex)}
<script src="/js/platform-mfa-sdk.js" defer></script>
<script src="/js/platform-ott-request-page.js" defer></script>
</head><body>
<div id="platform-page-config" hidden data-ott-request-url="/mfa/ott/generate-code"></div>
<form id="ottRequestForm" method="post" action="/mfa/ott/generate-code">
${await csrfHiddenInput(ex)}
<button id="sendCodeButton" type="submit">Email me a code</button>
</form>
</body></html>`,
      );
    },
  });
}

/** One POST the page sent, as the browser logged it. */
interface LoggedPost {
  path: string;
  accept: string;
  navigation: boolean;
}

/** Logs the page's POSTs (path, Accept header, whether the browser navigated with it). */
function logPosts(page: Page): { posts: LoggedPost[]; stop(): void } {
  const posts: LoggedPost[] = [];
  const listener = (request: Request): void => {
    if (request.method() !== "POST") return;
    posts.push({
      path: new URL(request.url()).pathname,
      accept: request.headers().accept ?? "",
      navigation: request.isNavigationRequest(),
    });
  };
  page.on("request", listener);
  return { posts, stop: () => page.off("request", listener) };
}

/** Records the main frame's navigations (a step that stays in the page records none). */
function logNavigations(page: Page): { urls: string[]; stop(): void } {
  const urls: string[] = [];
  const listener = (frame: ReturnType<Page["mainFrame"]>): void => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  };
  page.on("framenavigated", listener);
  return { urls, stop: () => page.off("framenavigated", listener) };
}

/** Who the page's session is, from /api/me. */
function me(page: Page): Promise<{ username?: string; method?: string; factors?: string[]; code?: string }> {
  return page.evaluate(
    async () =>
      (await (await fetch("/api/me", { headers: { accept: "application/json" } })).json()) as {
        username?: string;
        method?: string;
        factors?: string[];
        code?: string;
      },
  );
}

/** Signs out through POST /logout with the login page's CSRF token. */
async function signOut(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  const token = (await page.getAttribute('meta[name="_csrf"]', "content")) ?? "";
  await page.evaluate(async (csrf) => {
    await fetch("/logout", { method: "POST", headers: { "X-CSRF-TOKEN": csrf }, redirect: "manual" });
  }, token);
  expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
}

/** The text of the page's status line. */
async function statusText(page: Page): Promise<string> {
  return (await page.textContent('[role="status"]')) ?? "";
}

/**
 * Signs admin in with the password on `/login` (the login page script) and waits for the code
 * challenge page; answers the delivered code. Checks the primary step went through the SDK.
 */
async function adminPassword(page: Page, base: string, file: string): Promise<string> {
  const log = logPosts(page);
  try {
    const before = outbox(file).length;
    await page.goto(`${base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(`${base}/mfa/challenge/ott`), page.click("#loginButton")]);
    expect(log.posts.filter((p) => p.path === "/login")).toEqual([
      { path: "/login", accept: "application/json", navigation: false },
    ]);
    const line = await waitForLine(file, before + 1);
    expect(line).toMatchObject({ channel: "mfa-code", username: "admin" });
    return line.token;
  } finally {
    log.stop();
  }
}

/** Enters a code on the challenge page and waits for `/`; checks it went through the SDK. */
async function verifyCode(page: Page, base: string, code: string): Promise<void> {
  const log = logPosts(page);
  try {
    await page.fill("input[name=token]", code);
    await Promise.all([page.waitForURL(`${base}/`), page.click("#verifyButton")]);
    expect(log.posts.filter((p) => p.path === "/login/mfa-ott")).toEqual([
      { path: "/login/mfa-ott", accept: "application/json", navigation: false },
    ]);
  } finally {
    log.stop();
  }
}

describeInBrowser("MFA page scripts on the demo server (login, OTT verify and resend, custom pages)", () => {
  const file = newOutboxFile();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    server = await startMfaServer({
      outbox: file,
      security: demoSecurity,
      routes: (r) => {
        jsRoutes(built.files)(r);
        customLoginRoute(r);
        customOttRequestRoute(r);
      },
    });
    base = server.url;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("admin: /login posts through the SDK to the code page, the code completes the sign-in on /", async () => {
    const { page } = browser;
    const code = await adminPassword(page, base, file);
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
    await verifyCode(page, base, code);
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
  });

  it("a wrong code shows the attempts in the status line without leaving the page", async () => {
    const { page } = browser;
    await signOut(page, base);
    const code = await adminPassword(page, base, file);
    const navigations = logNavigations(page);
    try {
      await page.fill("input[name=token]", wrongCode(code));
      await page.click("#verifyButton");
      await expect.poll(() => statusText(page)).toMatch(/not valid.*Attempts: 1 of \d+/);
      expect(await page.getAttribute('[role="status"]', "data-state")).toBe("error");
      expect(await page.textContent("#ottAttempts")).toMatch(/Attempts: 1 of \d+/);
      expect(await page.getAttribute("#platform-page-config", "data-attempts-made")).toBe("1");
      expect(await page.isEnabled("#verifyButton")).toBe(true);
      expect(await page.inputValue("input[name=token]")).toBe("");
      expect(navigations.urls).toEqual([]);
      expect(page.url()).toBe(`${base}/mfa/challenge/ott`);
    } finally {
      navigations.stop();
    }
    // The right code still completes the flow.
    await verifyCode(page, base, code);
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("resend sends a new code without navigation; the new code signs in", async () => {
    const { page } = browser;
    await signOut(page, base);
    await adminPassword(page, base, file);
    const log = logPosts(page);
    const navigations = logNavigations(page);
    const before = outbox(file).length;
    try {
      await page.click("#resendButton");
      await expect.poll(() => statusText(page)).toBe("A new code was sent.");
      const line = await waitForLine(file, before + 1);
      expect(line).toMatchObject({ channel: "mfa-code", username: "admin" });
      expect(log.posts).toEqual([
        { path: "/mfa/ott/generate-code", accept: "application/json", navigation: false },
      ]);
      expect(navigations.urls).toEqual([]);
      expect(await page.isEnabled("#resendButton")).toBe(true);
      await verifyCode(page, base, line.token);
    } finally {
      log.stop();
      navigations.stop();
    }
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("a custom OTT request page sends the code through the SDK and goes to the code page", async () => {
    const { page } = browser;
    await signOut(page, base);
    await adminPassword(page, base, file);
    await page.goto(`${base}/custom-ott-request`);
    const log = logPosts(page);
    const before = outbox(file).length;
    try {
      await Promise.all([page.waitForURL(`${base}/mfa/challenge/ott`), page.click("#sendCodeButton")]);
      expect(log.posts).toEqual([
        { path: "/mfa/ott/generate-code", accept: "application/json", navigation: false },
      ]);
    } finally {
      log.stop();
    }
    const line = await waitForLine(file, before + 1);
    await verifyCode(page, base, line.token);
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("a custom login page (other markup and CSS, same contract) works with the same scripts", async () => {
    const { page } = browser;
    await signOut(page, base);
    await page.goto(`${base}/custom-login`);
    expect(await page.textContent("#acmeTitle")).toBe("Welcome to Acme");
    const log = logPosts(page);
    const navigations = logNavigations(page);
    try {
      // A wrong password is explained in the page's own status element, in place.
      await page.fill("#username", "user");
      await page.fill("#password", "wrong");
      await page.click("#loginButton");
      await expect.poll(() => page.textContent("#acmeMessages")).toBe("Invalid username or password.");
      expect(navigations.urls).toEqual([]);
      expect(await page.inputValue("#password")).toBe("");

      await page.fill("#password", "password");
      await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
      expect(log.posts).toEqual([
        { path: "/login", accept: "application/json", navigation: false },
        { path: "/login", accept: "application/json", navigation: false },
      ]);
    } finally {
      log.stop();
      navigations.stop();
    }
    expect(await me(page)).toMatchObject({ username: "user", method: "form" });
  });

  it("when the SDK's request fails (network), the login page falls back to the plain form post", async () => {
    const { page } = browser;
    await signOut(page, base);
    // Only the script's JSON POST fails; the browser's own form post goes through.
    await page.route("**/login", (route) =>
      route.request().method() === "POST" && route.request().headers().accept === "application/json"
        ? route.abort("connectionreset")
        : route.continue(),
    );
    const log = logPosts(page);
    try {
      await page.goto(`${base}/login`);
      await page.fill("#username", "user");
      await page.fill("#password", "password");
      await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
      // (The page's passkey autofill request, POST /webauthn/authenticate/options, is not a sign-in post.)
      expect(
        log.posts
          .filter((p) => p.path === "/login")
          .map((p) => ({ accept: p.accept.includes("application/json"), nav: p.navigation })),
      ).toEqual([
        { accept: true, nav: false },
        { accept: false, nav: true },
      ]);
    } finally {
      log.stop();
      await page.unroute("**/login");
    }
    expect(await me(page)).toMatchObject({ username: "user", method: "form" });
  });

  it("without the SDK the login page still works as a plain form", async () => {
    const { page } = browser;
    await signOut(page, base);
    await page.route("**/js/platform-mfa-sdk.js", (route) => route.abort());
    const log = logPosts(page);
    try {
      await page.goto(`${base}/login`);
      await page.fill("#username", "user");
      await page.fill("#password", "password");
      await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
      expect(log.posts).toMatchObject([{ path: "/login", navigation: true }]);
      expect(log.posts[0]?.accept).not.toContain("application/json");
    } finally {
      log.stop();
      await page.unroute("**/js/platform-mfa-sdk.js");
    }
    expect(await me(page)).toMatchObject({ username: "user" });
  });
});

describeInBrowser("MFA page scripts: the passkey page with a virtual authenticator", () => {
  const file = newOutboxFile();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;
  let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;
  /** Simulated user presence: off, a waiting autofill request stays waiting (on, it is answered at once). */
  const presence = (enabled: boolean) =>
    authenticator.cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: authenticator.authenticatorId,
      enabled,
    });

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    server = await startMfaServer({
      outbox: file,
      security: mfaWithPasskeySecurity(1),
      routes: jsRoutes(built.files),
    });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    authenticator = await addVirtualAuthenticator(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("admin registers a passkey, then selects it and #authButton completes the sign-in", async () => {
    const { page } = browser;
    await verifyCode(page, base, await adminPassword(page, base, file));
    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "Admin laptop");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');
    // /login (signing out, signing in) runs passkey autofill, which would take the new passkey at
    // once while presence is simulated.
    await presence(false);
    await signOut(page, base);
    await adminPassword(page, base, file);
    await presence(true);
    await Promise.all([page.waitForURL(`${base}/mfa/select-factor`), page.click("#tryAnotherMethodLink")]);
    await Promise.all([page.waitForURL(`${base}/mfa/challenge/passkey`), page.click("#selectPasskeyButton")]);
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
    const log = logPosts(page);
    try {
      await Promise.all([page.waitForURL(`${base}/`), page.click("#authButton")]);
      expect(log.posts).toEqual([
        { path: "/mfa/webauthn/authenticate/options", accept: "application/json", navigation: false },
        { path: "/login/mfa-webauthn", accept: "application/json", navigation: false },
      ]);
    } finally {
      log.stop();
    }
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "hwk"] });
  });
});
