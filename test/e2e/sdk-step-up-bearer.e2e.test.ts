import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { buildPlatformSdk } from "../../packages/sdk-browser/build/build-sdk.js";
import {
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  startMfaServer,
  waitForLine,
} from "../identity/mfa/mfa-test-support.js";
import {
  addVirtualAuthenticator,
  type BrowserSession,
  describeInBrowser,
  launchBrowser,
} from "./browser-harness.js";
import {
  appRoutes,
  expectNoNavigation,
  jsRoutes,
  logNavigations,
  logRequests,
  OVERLAY,
  openApp,
  type PageGlobals,
  passwordSignIn,
  type RouteHits,
  stepUpSecurity,
} from "./sdk-e2e-support.js";

// The step-up interceptor for a bearer client (REST sign-in, JWTs): `/api/account/**` needs a recent
// factor; the overlay completes it with the passkey (virtual authenticator) or a code, and the retried
// request carries the new access token of the completion answer.

/** The page's globals these tests use (the SDK bundle is untyped JavaScript). */
interface Win {
  PlatformMFA: {
    Client: new (o: Record<string, unknown>) => PageClient;
    installInterceptor(o: Record<string, unknown>): { uninstall(): void };
  };
  client: PageClient;
  result: Promise<unknown>;
}
interface PageClient extends EventTarget {
  apiClient: { login(u: string, p: string): Promise<Record<string, unknown>> };
  handleAuthenticationResult(r: Record<string, unknown>): void;
  accessToken(): string | undefined;
}

/** Signs `user` in over REST (`apiClient.login` to /api/login), keeps the tokens, installs the interceptor. */
async function bearerClient(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const w = globalThis as unknown as Win;
    w.client = new w.PlatformMFA.Client({
      autoRedirect: false,
      config: { primary: { restLoginProcessing: "/api/login" } },
    });
    w.client.handleAuthenticationResult(await w.client.apiClient.login("user", "password"));
    w.PlatformMFA.installInterceptor({ client: w.client });
    return w.client.accessToken() ?? "";
  });
}

describeInBrowser("SDK step-up interceptor in the page (bearer tokens, passkey and code)", () => {
  const file = newOutboxFile();
  const clock = new ManualClock(Date.now());
  const hits: RouteHits = new Map();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    server = await startMfaServer({
      outbox: file,
      security: stepUpSecurity,
      register: (c) => c.registerInstance(Clock, clock),
      routes: (r) => {
        jsRoutes(built.files)(r);
        appRoutes(hits)(r);
      },
    });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    await addVirtualAuthenticator(browser.page);
    // `user` registers a passkey (signed in with the password), so the step-up offers both factors.
    const { page } = browser;
    await passwordSignIn(page, base, "user", "password");
    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "User laptop");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(() => {
    clock.advance(6 * 60_000);
    hits.clear();
  });

  it("fetch with Authorization: Bearer: the passkey in the overlay completes; the retry carries the new token", async () => {
    const { page } = browser;
    await openApp(page, base);
    const oldToken = await bearerClient(page);
    const log = logRequests(page, "/api/account/", "/login/mfa-webauthn");
    const navigations = logNavigations(page);
    try {
      await page.evaluate((token) => {
        (globalThis as unknown as Win).result = fetch("/api/account/data", {
          headers: { Authorization: `Bearer ${token}` },
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      }, oldToken);
      // The first usable factor (a code) started; the overlay offers the passkey as well.
      await page.waitForSelector(OVERLAY.passkey);
      await page.click(OVERLAY.passkey);
      const result = await page.evaluate(() => (globalThis as unknown as Win).result);
      expect(result).toEqual({
        status: 200,
        body: { ok: true, username: "user", factors: expect.arrayContaining(["hwk"]), got: null },
      });
      const newToken = await page.evaluate(() => (globalThis as unknown as Win).client.accessToken());
      expect(newToken).toBeTruthy();
      expect(newToken).not.toBe(oldToken);
      const resource = log.requests.filter((r) => r.path === "/api/account/data");
      expect(resource.map((r) => r.headers.authorization)).toEqual([
        `Bearer ${oldToken}`,
        `Bearer ${newToken}`,
      ]);
      // The MFA verification itself went as the bearer (exempt from CSRF), not through the interceptor.
      expect(log.requests.find((r) => r.path === "/login/mfa-webauthn")?.headers.authorization).toBe(
        `Bearer ${oldToken}`,
      );
      expect(hits.get("GET /api/account/data")).toBe(1);
      await expectNoNavigation(page, base, navigations);
    } finally {
      log.stop();
      navigations.stop();
    }
  });

  it("XHR POST with Idempotency-Key and a bearer: the code completes; the same body is sent again with the new token", async () => {
    const { page } = browser;
    await openApp(page, base);
    const oldToken = await bearerClient(page);
    const log = logRequests(page, "/api/account/");
    const navigations = logNavigations(page);
    const before = outbox(file).length;
    try {
      await page.evaluate((token) => {
        (globalThis as unknown as Win).result = new Promise((resolve) => {
          const xhr = new (globalThis as unknown as PageGlobals).XMLHttpRequest();
          xhr.open("POST", "/api/account/transfer");
          xhr.setRequestHeader("Authorization", `Bearer ${token}`);
          xhr.setRequestHeader("Content-Type", "application/json");
          xhr.setRequestHeader("Idempotency-Key", "xhr-9");
          xhr.responseType = "json";
          xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
          xhr.send(JSON.stringify({ amount: 7 }));
        });
      }, oldToken);
      await page.waitForSelector(OVERLAY.code);
      const line = await waitForLine(file, before + 1);
      expect(line).toMatchObject({ channel: "mfa-code", username: "user" });
      await page.fill(OVERLAY.code, line.token);
      await page.click(OVERLAY.verify);
      expect(await page.evaluate(() => (globalThis as unknown as Win).result)).toEqual({
        status: 200,
        body: { ok: true, username: "user", factors: expect.arrayContaining(["otp"]), got: { amount: 7 } },
      });
      const newToken = await page.evaluate(() => (globalThis as unknown as Win).client.accessToken());
      expect(
        log.requests.map((r) => [r.method, r.headers.authorization, r.headers["idempotency-key"]]),
      ).toEqual([
        ["POST", `Bearer ${oldToken}`, "xhr-9"],
        ["POST", `Bearer ${newToken}`, "xhr-9"],
      ]);
      expect(log.requests.map((r) => r.body)).toEqual(['{"amount":7}', '{"amount":7}']);
      expect(hits.get("POST /api/account/transfer")).toBe(1);
      await expectNoNavigation(page, base, navigations);
    } finally {
      log.stop();
      navigations.stop();
    }
  });

  it("cancel: the overlay closes, the caller receives the original 401 and nothing is re-sent", async () => {
    const { page } = browser;
    await openApp(page, base);
    const token = await bearerClient(page);
    const log = logRequests(page, "/api/account/");
    try {
      await page.evaluate((t) => {
        (globalThis as unknown as Win).result = fetch("/api/account/data", {
          headers: { Authorization: `Bearer ${t}` },
        }).then(async (r) => ({
          status: r.status,
          code: ((await r.json()) as { code: string }).code,
          wwwAuthenticate: r.headers.get("www-authenticate"),
        }));
      }, token);
      await page.waitForSelector(OVERLAY.code);
      await page.click(OVERLAY.cancel);
      expect(await page.evaluate(() => (globalThis as unknown as Win).result)).toEqual({
        status: 401,
        code: "MFA_CHALLENGE_REQUIRED",
        wwwAuthenticate: 'Bearer error="insufficient_user_authentication"',
      });
      expect(await page.$(OVERLAY.host)).toBeNull();
      expect(log.requests).toHaveLength(1);
    } finally {
      log.stop();
    }
  });
});
