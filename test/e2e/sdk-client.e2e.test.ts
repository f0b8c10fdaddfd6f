import type { RouteRegistry } from "@keyward/adapters-http";
import { csrfMetaTags } from "@keyward/core";
import type { HttpExchange } from "@keyward/core/web";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildPlatformSdk, SDK_IIFE_FILE } from "../../packages/sdk-browser/build/build-sdk.js";
import {
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  startMfaServer,
  waitForLine,
  mfaWithPasskeySecurity,
} from "../identity/mfa/mfa-test-support.js";
import {
  addVirtualAuthenticator,
  type BrowserSession,
  describeInBrowser,
  launchBrowser,
} from "./browser-harness.js";

// The built browser SDK (window.PlatformMFA) in headless Chromium against the real server: served at
// /sdk.js and loaded by a tiny page /sdk-test that carries the session's CSRF meta tags.

/** What the page scripts below use of the SDK (the bundle is untyped JavaScript in the page). */
interface Answer {
  [key: string]: unknown;
}
interface PageClient extends EventTarget {
  ready: Promise<unknown>;
  state: { mfaSessionId?: string; username?: string; state?: string; availableFactors: string[] };
  apiClient: {
    login(u: string, p: string): Promise<Answer>;
    loginForm(u: string, p: string): Promise<Answer>;
    status(): Promise<Answer>;
    selectFactor(f: string): Promise<Answer>;
  };
  selectFactor(f: string): Promise<Answer>;
  verifyOtt(code: string, username?: string): Promise<Answer>;
  verifyPasskey(): Promise<Answer>;
  handleAuthenticationResult(r: Answer): void;
  accessToken(): string | undefined;
  logout(): Promise<Answer>;
  clearPersistedTokens(): void;
}
interface PageWindow {
  PlatformMFA: { version: string; Client: new (options?: Answer) => PageClient };
  sdkClient: PageClient;
  sdkEvents: string[];
  localStorage: { getItem(k: string): string | null; length: number; key(i: number): string | null };
  sessionStorage: PageWindow["localStorage"];
  document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };
}

/** The SDK served as a script, and a page that loads it with the CSRF meta tags. */
function sdkRoutes(iife: string): (r: RouteRegistry) => void {
  return (r) => {
    r.add({
      method: "GET",
      path: "/sdk.js",
      handler: (ex: HttpExchange) => {
        ex.response.headers.set("content-type", "text/javascript; charset=utf-8");
        ex.response.body = iife;
        ex.response.committed = true;
      },
    });
    r.add({
      method: "GET",
      path: "/sdk-test",
      handler: async (ex: HttpExchange) => {
        ex.html(
          200,
          `<!doctype html><html><head><meta charset="utf-8"><title>SDK test</title>
${await csrfMetaTags(ex)}
<script src="/sdk.js"></script>
</head><body><h1>SDK test</h1></body></html>`,
        );
      },
    });
  };
}

/** Opens /sdk-test and makes `window.sdkClient` (events recorded in `window.sdkEvents`). */
async function openSdkPage(page: Page, base: string, options: Answer = {}): Promise<void> {
  await page.goto(`${base}/sdk-test`);
  await page.evaluate(async (opts) => {
    const w = globalThis as unknown as PageWindow;
    w.sdkEvents = [];
    w.sdkClient = new w.PlatformMFA.Client({ autoRedirect: false, ...opts });
    for (const type of ["mfa:required", "mfa:completed", "mfa:failed"]) {
      w.sdkClient.addEventListener(type, () => w.sdkEvents.push(type));
    }
    await w.sdkClient.ready;
  }, options);
}

/** GET /api/me as JSON, optionally with a bearer token. */
function me(page: Page, bearer?: string): Promise<Answer & { status: number }> {
  return page.evaluate(async (token) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch("/api/me", { headers });
    return { status: res.status, ...((await res.json()) as Answer) };
  }, bearer);
}

/** The `platform_*` token keys of both storages. */
function storedTokens(
  page: Page,
): Promise<{ local: Record<string, string>; session: Record<string, string> }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    const read = (s: PageWindow["localStorage"]): Record<string, string> => {
      const out: Record<string, string> = {};
      for (let i = 0; i < s.length; i++) {
        const k = s.key(i);
        if (k?.startsWith("platform_") && k !== "platform_device_id") out[k] = s.getItem(k) ?? "";
      }
      return out;
    };
    return { local: read(w.localStorage), session: read(w.sessionStorage) };
  });
}

describeInBrowser("browser SDK (window.PlatformMFA) against the demo server", () => {
  const file = newOutboxFile();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    const iife = built.files.find((f) => f.name === SDK_IIFE_FILE)?.contents ?? "";
    server = await startMfaServer({ outbox: file, routes: sdkRoutes(iife) });
    base = server.url;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("defines window.PlatformMFA 2.2.0", async () => {
    const { page } = browser;
    await page.goto(`${base}/sdk-test`);
    const sdk = await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow & { PlatformMFA: Record<string, unknown> };
      return {
        version: w.PlatformMFA.version,
        members: Object.keys(w.PlatformMFA).sort(),
      };
    });
    expect(sdk).toEqual({
      version: "2.2.0",
      members: ["ApiClient", "Client", "PlatformMfaError", "installInterceptor", "version"],
    });
  });

  it("form primary + OTT to completion: loginForm, the code from the outbox, verifyOtt, redirected", async () => {
    const { page } = browser;
    await openSdkPage(page, base, { autoRedirect: true });
    const before = outbox(file).length;
    const primary = await page.evaluate(async () => {
      const w = globalThis as unknown as PageWindow;
      const answer = await w.sdkClient.apiClient.loginForm("admin", "admin");
      return { answer, state: w.sdkClient.state };
    });
    expect(primary.answer).toMatchObject({
      mfaRequired: true,
      selectFactorUrl: "/mfa/select-factor",
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
    });
    expect(primary.state).toMatchObject({
      mfaSessionId: primary.answer.mfaSessionId,
      username: "admin",
      state: "OTT_CHALLENGE",
    });
    const line = await waitForLine(file, before + 1);
    expect(line).toMatchObject({ channel: "mfa-code", username: "admin" });
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");

    // verifyOtt with the tracked username; the final answer's local redirectUrl is followed.
    await Promise.all([
      page.waitForURL(`${base}/`),
      page.evaluate((code) => {
        const w = globalThis as unknown as PageWindow;
        void w.sdkClient.verifyOtt(code);
      }, line.token),
    ]);
    expect(await me(page)).toMatchObject({
      status: 200,
      username: "admin",
      method: "mfa",
      factors: ["pwd", "otp"],
    });
  });

  it("a wrong code is a PlatformMfaError with attempts, and mfa:failed is dispatched", async () => {
    const { page } = browser;
    await openSdkPage(page, base);
    const before = outbox(file).length;
    await page.evaluate(async () => {
      await (globalThis as unknown as PageWindow).sdkClient.apiClient.loginForm("admin", "admin");
    });
    const { token } = await waitForLine(file, before + 1);
    const wrong = token
      .split("")
      .map((d) => String((Number(d) + 1) % 10))
      .join("");
    const failure = await page.evaluate(async (code) => {
      const w = globalThis as unknown as PageWindow;
      try {
        await w.sdkClient.verifyOtt(code);
        return undefined;
      } catch (e) {
        const error = e as Error & { code: string; status: number; body: Answer };
        return {
          name: error.name,
          code: error.code,
          status: error.status,
          body: error.body,
          isSdkError:
            e instanceof (w.PlatformMFA as unknown as { PlatformMfaError: new () => Error }).PlatformMfaError,
          events: w.sdkEvents,
        };
      }
    }, wrong);
    expect(failure).toMatchObject({
      name: "PlatformMfaError",
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      status: 401,
      isSdkError: true,
      body: { success: false, failureType: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 1 },
      events: ["mfa:required", "mfa:failed"],
    });
    expect(typeof failure?.body.maxAttempts).toBe("number");
  });

  for (const mode of ["memory", "localStorage", "sessionStorage"] as const) {
    it(`REST primary (apiClient.login) with tokenPersistence ${mode}: tokens where they belong, logout clears them`, async () => {
      const { page } = browser;
      // The demo's REST chain (/api/login, /api/logout) answers tokens directly for `user`.
      const options = {
        tokenPersistence: mode,
        config: { primary: { restLoginProcessing: "/api/login" }, api: { logout: "/api/logout" } },
      };
      await openSdkPage(page, base, options);
      const login = await page.evaluate(async () => {
        const w = globalThis as unknown as PageWindow;
        const answer = await w.sdkClient.apiClient.login("user", "password");
        w.sdkClient.handleAuthenticationResult(answer);
        return { answer, accessToken: w.sdkClient.accessToken() };
      });
      expect(login.answer).toMatchObject({ success: true, tokenType: "Bearer" });
      expect(login.accessToken).toBe(login.answer.accessToken);
      const access = String(login.answer.accessToken);
      const refresh = String(login.answer.refreshToken);

      const stored = await storedTokens(page);
      const expected = {
        platform_access_token: access,
        platform_refresh_token: refresh,
        platform_token_expiry: expect.stringMatching(/^\d+$/),
        platform_refresh_expiry: expect.stringMatching(/^\d+$/),
      };
      expect(stored).toEqual({
        local: mode === "localStorage" ? expected : {},
        session: mode === "sessionStorage" ? expected : {},
      });
      expect(await me(page, access)).toMatchObject({
        status: 200,
        username: "user",
        authenticatedBy: "bearer",
      });

      // A reload keeps stored tokens; memory tokens die with the page.
      await openSdkPage(page, base, options);
      const afterReload = await page.evaluate(() =>
        (globalThis as unknown as PageWindow).sdkClient.accessToken(),
      );
      expect(afterReload).toBe(mode === "memory" ? undefined : access);
      if (mode === "memory") {
        await page.evaluate(async () => {
          const w = globalThis as unknown as PageWindow;
          w.sdkClient.handleAuthenticationResult(await w.sdkClient.apiClient.login("user", "password"));
        });
      }

      // logout: revoked on the server (bearer + refresh token), cleared locally.
      const held = await page.evaluate(() => (globalThis as unknown as PageWindow).sdkClient.accessToken());
      const out = await page.evaluate(async () => {
        const w = globalThis as unknown as PageWindow;
        const answer = await w.sdkClient.logout();
        return { answer, accessToken: w.sdkClient.accessToken() ?? null };
      });
      expect(out).toEqual({ answer: { success: true, redirectUrl: expect.any(String) }, accessToken: null });
      expect(await storedTokens(page)).toEqual({ local: {}, session: {} });
      expect((await me(page, held)).status).toBe(401);

      // clearPersistedTokens() alone removes stored tokens too.
      await page.evaluate(async () => {
        const w = globalThis as unknown as PageWindow;
        w.sdkClient.handleAuthenticationResult(await w.sdkClient.apiClient.login("user", "password"));
        w.sdkClient.clearPersistedTokens();
      });
      expect(await storedTokens(page)).toEqual({ local: {}, session: {} });
    });
  }

  it("sends a stable X-Device-Id (kept in localStorage across reloads) and the CSRF header on POSTs", async () => {
    const { page } = browser;
    const seen: { method: string; headers: Record<string, string> }[] = [];
    const listener = async (request: Request) => {
      if (new URL(request.url()).pathname === "/mfa/select-factor") {
        seen.push({ method: request.method(), headers: await request.allHeaders() });
      }
    };
    page.on("request", listener);
    try {
      const calls: { code: string; meta: string; stored: string | null }[] = [];
      for (let i = 0; i < 2; i++) {
        await openSdkPage(page, base);
        calls.push(
          await page.evaluate(async () => {
            const w = globalThis as unknown as PageWindow;
            let code = "none";
            try {
              await w.sdkClient.apiClient.selectFactor("OTT");
            } catch (e) {
              code = (e as { code: string }).code;
            }
            return {
              code,
              meta: w.document.querySelector('meta[name="_csrf"]')?.getAttribute("content") ?? "",
              stored: w.localStorage.getItem("platform_device_id"),
            };
          }),
        );
      }
      await expect.poll(() => seen.length).toBe(2);
      const ids = seen.map((s) => s.headers["x-device-id"]);
      expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(ids[1]).toBe(ids[0]);
      expect(calls.map((c) => c.stored)).toEqual([ids[0], ids[0]]);
      for (const [i, s] of seen.entries()) {
        expect(s.method).toBe("POST");
        expect(s.headers["x-csrf-token"]).toBe(calls[i]?.meta);
        expect(s.headers.accept).toBe("application/json");
      }
      // The CSRF check passed (the JSON body has no _csrf: the header alone carried the token)...
      expect(calls.map((c) => c.code)).not.toContain("CSRF_TOKEN_INVALID");
      // ...where the same POST with a wrong header is refused.
      const control = await page.evaluate(async () => {
        const res = await fetch("/mfa/select-factor", {
          method: "POST",
          headers: {
            accept: "application/json",
            "content-type": "application/json",
            "X-CSRF-TOKEN": "wrong",
          },
          body: JSON.stringify({ factorType: "OTT" }),
        });
        return { status: res.status, code: ((await res.json()) as { code?: string }).code };
      });
      expect(control).toEqual({ status: 403, code: "CSRF_TOKEN_INVALID" });
    } finally {
      page.off("request", listener);
    }
  });
});

describeInBrowser("browser SDK: the passkey factor with a virtual authenticator", () => {
  const file = newOutboxFile();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;

  beforeAll(async () => {
    const built = await buildPlatformSdk();
    const iife = built.files.find((f) => f.name === SDK_IIFE_FILE)?.contents ?? "";
    server = await startMfaServer({
      outbox: file,
      security: mfaWithPasskeySecurity(1),
      routes: sdkRoutes(iife),
    });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    await addVirtualAuthenticator(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("signs in with OTT, registers a passkey, logs out, then completes MFA with verifyPasskey()", async () => {
    const { page } = browser;
    await openSdkPage(page, base);
    const before = outbox(file).length;
    await page.evaluate(async () => {
      await (globalThis as unknown as PageWindow).sdkClient.apiClient.loginForm("admin", "admin");
    });
    const { token } = await waitForLine(file, before + 1);
    const done = await page.evaluate(
      (code) => (globalThis as unknown as PageWindow).sdkClient.verifyOtt(code),
      token,
    );
    expect(done).toEqual({ success: true, redirectUrl: "/" });

    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "Admin laptop");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');

    // logout() on the session flow (POST /logout with the page's CSRF header).
    await openSdkPage(page, base);
    const loggedOut = await page.evaluate(() => (globalThis as unknown as PageWindow).sdkClient.logout());
    expect(loggedOut).toMatchObject({ success: true });
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");

    await openSdkPage(page, base);
    const result = await page.evaluate(async () => {
      const w = globalThis as unknown as PageWindow;
      const primary = await w.sdkClient.apiClient.loginForm("admin", "admin");
      const selected = await w.sdkClient.selectFactor("PASSKEY");
      const verified = await w.sdkClient.verifyPasskey();
      return { primary, selected, verified, events: w.sdkEvents };
    });
    expect(result.primary).toMatchObject({
      mfaRequired: true,
      availableFactors: expect.arrayContaining(["PASSKEY"]),
    });
    expect(result.selected).toMatchObject({
      state: "PASSKEY_CHALLENGE",
      nextStepUrl: "/mfa/challenge/passkey",
    });
    expect(result.verified).toEqual({ success: true, redirectUrl: "/" });
    expect(result.events).toEqual(["mfa:required", "mfa:completed"]);
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "hwk"] });
  });
});
