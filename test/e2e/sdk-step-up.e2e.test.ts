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
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";
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

// The step-up interceptor in headless Chromium against the real server, session case: `user` signed
// in with the password on /login; the page's fetch and XHR reach /account/** (recent factor
// required); the overlay completes the OTT factor in place and the callers receive the retried 200.

/** What the page scripts below use of the page's globals (the SDK bundle is untyped JavaScript). */
interface Win {
  PlatformMFA: {
    installInterceptor(o?: Record<string, unknown>): { client: EventTarget; uninstall(): void };
  };
  handle: { client: EventTarget; uninstall(): void };
  events: { type: string; detail: Record<string, unknown> }[];
  result: Promise<unknown>;
}

/** Installs the interceptor (options as JSON) and records its events in `window.events`. */
async function install(page: Page, options: Record<string, unknown> = {}): Promise<void> {
  await page.evaluate((o) => {
    const w = globalThis as unknown as Win;
    w.events = [];
    w.handle = w.PlatformMFA.installInterceptor(o);
    for (const t of ["mfa:challenge", "mfa:blocked", "mfa:retry-skipped", "mfa:resumed", "mfa:completed"]) {
      w.handle.client.addEventListener(t, (e) =>
        w.events.push({ type: t, detail: JSON.parse(JSON.stringify((e as CustomEvent).detail ?? {})) }),
      );
    }
  }, options);
}

/** Waits until the overlay shows the factor (its host is a zero-size element: wait for the dialog's field). */
async function waitForOverlay(page: Page, factor: "OTT" | "PASSKEY"): Promise<void> {
  await page.waitForSelector(factor === "OTT" ? OVERLAY.code : OVERLAY.passkey);
  expect(await page.getAttribute(OVERLAY.host, "data-factor")).toBe(factor);
}

const eventTypes = (page: Page): Promise<string[]> =>
  page.evaluate(() => (globalThis as unknown as Win).events.map((e) => e.type));

describeInBrowser("SDK step-up interceptor in the page (session, OTT overlay)", () => {
  const file = newOutboxFile();
  const clock = new ManualClock(Date.now());
  const hits: RouteHits = new Map();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;

  /** The code the server mailed to `user` for the step-up that `action` caused (the n-th new line). */
  async function codeFor(before: number, n = 1): Promise<string> {
    const line = await waitForLine(file, before + n);
    expect(line).toMatchObject({ channel: "mfa-code", username: "user" });
    return line.token;
  }

  /** Enters a code in the overlay. */
  async function enterCode(page: Page, code: string): Promise<void> {
    await page.fill(OVERLAY.code, code);
    await page.click(OVERLAY.verify);
  }

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
    base = server.url;
    browser = await launchBrowser();
    await passwordSignIn(browser.page, base, "user", "password");
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(() => {
    // The last test's factor is stale again: every test meets a fresh step-up.
    clock.advance(6 * 60_000);
    hits.clear();
  });

  it("fetch: the overlay takes the mailed code, no navigation, the caller receives the retried 200", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const log = logRequests(page, "/account/");
    const navigations = logNavigations(page);
    const before = outbox(file).length;
    try {
      await page.evaluate(() => {
        (globalThis as unknown as Win).result = fetch("/account/data").then(async (r) => ({
          status: r.status,
          body: await r.json(),
        }));
      });
      await waitForOverlay(page, "OTT");
      await enterCode(page, await codeFor(before));
      const result = await page.evaluate(() => (globalThis as unknown as Win).result);
      expect(result).toEqual({
        status: 200,
        body: { ok: true, username: "user", factors: expect.arrayContaining(["pwd", "otp"]), got: null },
      });
      expect(await page.$(OVERLAY.host)).toBeNull();
      await expectNoNavigation(page, base, navigations);
      expect(log.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /account/data",
        "GET /account/data",
      ]);
      expect(hits.get("GET /account/data")).toBe(1);
      expect(await eventTypes(page)).toEqual(["mfa:challenge", "mfa:completed"]);
    } finally {
      log.stop();
      navigations.stop();
    }
  });

  it("XHR: onreadystatechange, onload, load listeners, status and responseText all see only the retried answer", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const navigations = logNavigations(page);
    const before = outbox(file).length;
    try {
      await page.evaluate(() => {
        (globalThis as unknown as Win).result = new Promise((resolve) => {
          const seen: string[] = [];
          const xhr = new (globalThis as unknown as PageGlobals).XMLHttpRequest();
          xhr.onreadystatechange = () => {
            if (xhr.readyState === 4) seen.push(`readystatechange ${xhr.status}`);
          };
          xhr.addEventListener("load", () => seen.push(`load ${xhr.status}`));
          xhr.onload = () => seen.push(`onload ${xhr.status}`);
          xhr.addEventListener("loadend", () =>
            resolve({
              seen,
              status: xhr.status,
              text: JSON.parse(xhr.responseText),
              response: xhr.response,
              isXhr: xhr instanceof (globalThis as unknown as PageGlobals).XMLHttpRequest,
            }),
          );
          xhr.open("GET", "/account/data");
          xhr.send();
        });
      });
      await waitForOverlay(page, "OTT");
      await enterCode(page, await codeFor(before));
      const result = (await page.evaluate(() => (globalThis as unknown as Win).result)) as Record<
        string,
        unknown
      >;
      expect(result.seen).toEqual(["readystatechange 200", "load 200", "onload 200"]);
      expect(result).toMatchObject({
        status: 200,
        text: { ok: true, factors: expect.arrayContaining(["otp"]) },
        isXhr: true,
      });
      expect(JSON.parse(String(result.response))).toMatchObject({ ok: true });
      await expectNoNavigation(page, base, navigations);
    } finally {
      navigations.stop();
    }
  });

  it("a wrong code stays in the overlay with the attempts; the right one completes", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const before = outbox(file).length;
    await page.evaluate(() => {
      (globalThis as unknown as Win).result = fetch("/account/data").then((r) => r.status);
    });
    await waitForOverlay(page, "OTT");
    const code = await codeFor(before);
    const wrong = code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
    await enterCode(page, wrong);
    await expect.poll(() => page.textContent(OVERLAY.status)).toMatch(/Attempts: 1 of \d+/);
    expect(await page.getAttribute(OVERLAY.host, "data-state")).toBe("error");
    await enterCode(page, code);
    expect(await page.evaluate(() => (globalThis as unknown as Win).result)).toBe(200);
  });

  it("POST without Idempotency-Key: not sent again; with one: retried with the rotated CSRF token", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const log = logRequests(page, "/account/");
    const before = outbox(file).length;
    try {
      // The application's POST: its CSRF header from the page's meta tag, as an app would send it.
      const post = (key?: string) =>
        page.evaluate((idempotencyKey) => {
          const csrf =
            (globalThis as unknown as PageGlobals).document
              .querySelector('meta[name="_csrf"]')
              ?.getAttribute("content") ?? "";
          const headers: Record<string, string> = {
            "content-type": "application/json",
            "X-CSRF-TOKEN": csrf,
          };
          if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
          return fetch("/account/transfer", {
            method: "POST",
            headers,
            body: JSON.stringify({ amount: 5 }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
        }, key);
      const metaBefore = await page.getAttribute('meta[name="_csrf"]', "content");
      const first = post();
      await waitForOverlay(page, "OTT");
      await enterCode(page, await codeFor(before));
      expect(await first).toMatchObject({ status: 401, body: { code: "MFA_CHALLENGE_REQUIRED" } });
      expect(log.requests.filter((r) => r.method === "POST")).toHaveLength(1);
      expect(hits.get("POST /account/transfer")).toBeUndefined();
      expect(await eventTypes(page)).toContain("mfa:retry-skipped");
      // The step-up rotated the session's CSRF token; the SDK put the new one in the page's meta tag.
      const metaAfter = await page.getAttribute('meta[name="_csrf"]', "content");
      expect(metaAfter).not.toBe(metaBefore);
      // The factor is fresh: the application's own resubmit goes through.
      expect(await post()).toMatchObject({ status: 200, body: { got: { amount: 5 } } });
      expect(hits.get("POST /account/transfer")).toBe(1);

      clock.advance(6 * 60_000);
      log.requests.length = 0;
      const lines = outbox(file).length;
      const keyed = post("transfer-7");
      await waitForOverlay(page, "OTT");
      await enterCode(page, await codeFor(lines));
      expect(await keyed).toMatchObject({ status: 200, body: { ok: true, got: { amount: 5 } } });
      // Sent twice with the key; the body reached the route on the retry (the answer echoes it).
      const sent = log.requests.filter((r) => r.method === "POST");
      expect(sent.map((r) => r.headers["idempotency-key"])).toEqual(["transfer-7", "transfer-7"]);
      expect(sent[1]?.headers["x-csrf-token"]).not.toBe(sent[0]?.headers["x-csrf-token"]);
      expect(sent[1]?.headers["x-csrf-token"]).toBe(await page.getAttribute('meta[name="_csrf"]', "content"));
      expect(hits.get("POST /account/transfer")).toBe(2);
    } finally {
      log.stop();
    }
  });

  it("XHR POST without Idempotency-Key: after the factor the held events deliver the original 401, nothing re-sent", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const log = logRequests(page, "/account/");
    const before = outbox(file).length;
    try {
      await page.evaluate(() => {
        (globalThis as unknown as Win).result = new Promise((resolve) => {
          const seen: string[] = [];
          const xhr = new (globalThis as unknown as PageGlobals).XMLHttpRequest();
          xhr.onreadystatechange = () => {
            if (xhr.readyState === 4) seen.push(`readystatechange ${xhr.status}`);
          };
          xhr.onload = () => seen.push(`onload ${xhr.status}`);
          xhr.onloadend = () => resolve({ seen, status: xhr.status, body: JSON.parse(xhr.responseText) });
          xhr.open("POST", "/account/transfer");
          xhr.setRequestHeader("Content-Type", "application/json");
          xhr.setRequestHeader(
            "X-CSRF-TOKEN",
            (globalThis as unknown as PageGlobals).document
              .querySelector('meta[name="_csrf"]')
              ?.getAttribute("content") ?? "",
          );
          xhr.send(JSON.stringify({ amount: 3 }));
        });
      });
      await waitForOverlay(page, "OTT");
      // Held while the challenge runs: the application has heard nothing yet.
      expect(await page.evaluate(() => (globalThis as unknown as Win).events.map((e) => e.type))).toEqual([
        "mfa:challenge",
      ]);
      await enterCode(page, await codeFor(before));
      expect(await page.evaluate(() => (globalThis as unknown as Win).result)).toEqual({
        seen: ["readystatechange 401", "onload 401"],
        status: 401,
        body: expect.objectContaining({ code: "MFA_CHALLENGE_REQUIRED" }),
      });
      expect(log.requests).toHaveLength(1);
      expect(hits.get("POST /account/transfer")).toBeUndefined();
      expect(await eventTypes(page)).toEqual(["mfa:challenge", "mfa:completed", "mfa:retry-skipped"]);
    } finally {
      log.stop();
    }
  });

  it("three concurrent fetches share one challenge: one overlay, three retried 200s, each request sent twice", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page);
    const log = logRequests(page, "/account/");
    const before = outbox(file).length;
    try {
      await page.evaluate(() => {
        (globalThis as unknown as Win).result = Promise.all(
          ["/account/a", "/account/b", "/account/c"].map((u) => fetch(u).then((r) => r.status)),
        );
      });
      await waitForOverlay(page, "OTT");
      // The server lets concurrent 401s of one sign-in share one challenge: one MFA session, one mail.
      await enterCode(page, await codeFor(before, 1));
      expect(outbox(file).length).toBe(before + 1);
      expect(await page.evaluate(() => (globalThis as unknown as Win).result)).toEqual([200, 200, 200]);
      expect(await page.$$(OVERLAY.host)).toHaveLength(0);
      const events = await eventTypes(page);
      expect(events.filter((t) => t === "mfa:challenge")).toHaveLength(1);
      for (const p of ["/account/a", "/account/b", "/account/c"]) {
        expect(
          log.requests.filter((r) => r.path === p),
          p,
        ).toHaveLength(2);
        expect(hits.get(`GET ${p}`), p).toBe(1);
      }
    } finally {
      log.stop();
    }
  });

  it("an application's own 403 is untouched; a platform refusal raises mfa:blocked and follows the configured redirect", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page, { blockedRedirectUrl: "/blocked-info" });
    const own = await page.evaluate(() =>
      fetch("/app/forbidden").then(async (r) => ({ status: r.status, body: await r.json() })),
    );
    expect(own).toEqual({ status: 403, body: { error: "This document belongs to someone else" } });
    expect(await page.$(OVERLAY.host)).toBeNull();
    expect(await eventTypes(page)).toEqual([]);

    const log = logRequests(page, "/app/");
    try {
      // The SDK starts the redirect before the application reads its answer; the navigation is held
      // until the page has handed the answer back, or a fast redirect destroys the page's context
      // under the evaluation (seen on a loaded machine).
      let release = (): void => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(`${base}/blocked-info`, async (route) => {
        await held;
        await route.continue();
      });
      const navigated = page.waitForURL(`${base}/blocked-info`);
      const blocked = await page.evaluate(() =>
        fetch("/app/blocked").then(async (r) => {
          const w = globalThis as unknown as Win;
          return { status: r.status, code: ((await r.json()) as { code: string }).code, events: w.events };
        }),
      );
      release();
      await navigated;
      await page.unroute(`${base}/blocked-info`);
      expect(blocked).toMatchObject({ status: 403, code: "AUTHENTICATION_BLOCKED" });
      expect(blocked.events.map((e) => [e.type, (e.detail.blocked as { code: string }).code])).toEqual([
        ["mfa:blocked", "AUTHENTICATION_BLOCKED"],
      ]);
      expect(log.requests.filter((r) => r.path === "/app/blocked")).toHaveLength(1);
      expect(hits.get("GET /app/blocked")).toBe(1);
    } finally {
      log.stop();
    }
  });

  it("redirect fallback: only method and URL are kept; the MFA page completes; the page is told on return", async () => {
    const { page } = browser;
    await openApp(page, base);
    await install(page, { fallback: "redirect" });
    const before = outbox(file).length;
    await Promise.all([
      page.waitForURL(`${base}/mfa/challenge/ott`),
      page.evaluate(() => {
        void fetch("/account/data?tab=keys", { headers: { Authorization: "Basic c2VjcmV0" } });
      }),
    ]);
    const stored = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).sessionStorage.getItem("platform_mfa_resume"),
    );
    const record = JSON.parse(stored ?? "{}") as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(["at", "method", "url"]);
    expect(record).toMatchObject({ method: "GET", url: "/account/data?tab=keys" });
    expect(stored).not.toContain("c2VjcmV0");

    // The server's challenge page (its own page script) completes the step-up and leaves.
    await page.fill("input[name=token]", await codeFor(before));
    await Promise.all([page.waitForURL(`${base}/`), page.click("#verifyButton")]);

    await page.goto(`${base}/app`);
    await install(page);
    await expect
      .poll(() =>
        page.evaluate(() => (globalThis as unknown as Win).events.filter((e) => e.type === "mfa:resumed")),
      )
      .toEqual([
        {
          type: "mfa:resumed",
          detail: expect.objectContaining({ resumed: { method: "GET", url: "/account/data?tab=keys" } }),
        },
      ]);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).sessionStorage.getItem("platform_mfa_resume"),
      ),
    ).toBeNull();
    // The factor is fresh now: the application repeats the request itself.
    expect(await page.evaluate(() => fetch("/account/data?tab=keys").then((r) => r.status))).toBe(200);
    // Announced once: the next load says nothing.
    await page.goto(`${base}/app`);
    await install(page);
    await page.waitForTimeout(50);
    expect(await eventTypes(page)).toEqual([]);
  });
});
