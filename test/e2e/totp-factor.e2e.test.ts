import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type OutboxLine, outbox, waitForLine } from "../identity/mfa/mfa-test-support.js";
import { mfaBearerToken, type RunningDemo, startDemo } from "../support/demo-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";
import { logRequests, OVERLAY } from "./sdk-e2e-support.js";

// An authenticator app (TOTP) end to end in headless Chromium on the demo (`platform start`'s chains,
// a ManualClock so every code is computed for a known 30-second step): `admin` enrols one from a page
// (the POST asks for a step-up, which the SDK's overlay completes with the mailed code), confirms it
// with a code computed here with otpauth, makes recovery codes, signs out, signs in on the login pages choosing the app, and
// later completes a step-up in the overlay with the app instead of the mailed code.

/** The overlay's choice buttons of plugin code factors (inside its open shadow root). */
const CHOICES = "#platform-mfa-step-up #stepUpFactors button";

/** What the page scripts use of the page's globals (the SDK bundle is untyped JavaScript). */
interface Win {
  PlatformMFA: { installInterceptor(o?: Record<string, unknown>): Handle };
  handle: Handle;
  pending: Promise<{ status: number; body: Record<string, unknown> }>;
}
interface Handle {
  client: { accessToken(): string | undefined; logout(): Promise<unknown> };
  uninstall(): void;
}

/** The app's code for the clock's current step. */
function appCode(secret: string, clock: ManualClock): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: clock.now() });
}

/** Installs the interceptor and sends `fetch(url, init)` from the page; the answer lands in `pending`. */
async function sendThroughInterceptor(page: Page, url: string, init: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ([u, i]) => {
      const w = globalThis as unknown as Win;
      w.handle = w.PlatformMFA.installInterceptor();
      w.pending = fetch(u as string, i as RequestInit).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
      }));
    },
    [url, init] as const,
  );
}

const pending = (page: Page) => page.evaluate(() => (globalThis as unknown as Win).pending);

describeInBrowser("TOTP in the browser: enrol, sign in with the app, step up with the app (demo)", () => {
  const clock = new ManualClock(Date.now());
  let demo: RunningDemo;
  let browser: BrowserSession;
  let page: Page;
  let secret = "";

  /** The next e-mailed MFA code for admin after outbox line `before` (notices are skipped). */
  async function mailedCode(before: number): Promise<string> {
    for (let n = before + 1; ; n++) {
      const line: OutboxLine = await waitForLine(demo.outboxFile, n);
      if (line.channel === "mfa-code" && line.username === "admin") return line.token;
    }
  }

  beforeAll(async () => {
    demo = await startDemo({}, {}, { overrides: (o) => o.override(Clock, { useValue: clock }) });
    browser = await launchBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it("enrols from the page: the POST's step-up is completed in the overlay, a computed code confirms, then signs out", async () => {
    // A bearer signed in with the mailed code, six minutes ago: its factor is no longer recent.
    const token = await mfaBearerToken(demo, "admin", "admin");
    clock.advance(6 * 60_000);
    await page.goto(`${demo.base}/`);
    const before = outbox(demo.outboxFile).length;
    await sendThroughInterceptor(page, "/api/account/factors/totp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": "e1",
      },
      body: "{}",
    });
    const code = await mailedCode(before);
    await page.waitForSelector(OVERLAY.code);
    expect(await page.getAttribute(OVERLAY.host, "data-factor")).toBe("OTT");
    // No app yet: the overlay offers nothing but the mailed code.
    expect(await page.locator(CHOICES).count()).toBe(0);
    await page.fill(OVERLAY.code, code);
    await page.click(OVERLAY.verify);
    const enrolled = await pending(page);
    expect(enrolled.status).toBe(201);
    secret = String(enrolled.body.secret);
    expect(enrolled.body.otpauthUri).toMatch(/^otpauth:\/\/totp\//);

    // With the new token (the step-up's): confirm the app, and make recovery codes (a third factor).
    const statuses = await page.evaluate(
      async ([code]) => {
        const bearer = (globalThis as unknown as Win).handle.client.accessToken();
        const post = async (url: string, body: unknown) =>
          (
            await fetch(url, {
              method: "POST",
              headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
              body: JSON.stringify(body),
            })
          ).status;
        return [
          await post("/api/account/factors/totp/confirm", { code }),
          await post("/api/account/recovery-codes", {}),
        ];
      },
      [appCode(secret, clock)] as const,
    );
    expect(statuses).toEqual([200, 201]);
    // Signs out: the tokens are revoked and forgotten.
    const left = await page.evaluate(async () => {
      const { client } = (globalThis as unknown as Win).handle;
      await client.logout();
      return client.accessToken() ?? null;
    });
    expect(left).toBeNull();
  });

  it("signs in on the login pages choosing the authenticator app, with a freshly computed code", async () => {
    clock.advance(30_000); // the next step: the confirm spent the last one
    await page.goto(`${demo.base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(/\/mfa\/challenge\/ott/), page.click("#loginButton")]);
    await Promise.all([page.waitForURL(/\/mfa\/select-factor/), page.click("#tryAnotherMethodLink")]);
    await Promise.all([page.waitForURL(/\/mfa\/challenge\/totp/), page.click("#selectTotpButton")]);
    await page.fill("#token", appCode(secret, clock));
    await Promise.all([page.waitForURL(`${demo.base}/`), page.click("#verifyButton")]);
    expect(await page.textContent("#who")).toContain("Signed in as admin");
  });

  it("steps up in the overlay with the app: chosen over the mailed code, a wrong code counted, the right one completes, the GET is retried", async () => {
    clock.advance(6 * 60_000); // the sign-in's factor is no longer recent; a new app step too
    await page.reload();
    const sent = logRequests(page, "/login/mfa-", "/mfa/select-factor");
    await sendThroughInterceptor(page, "/account/security", { headers: { accept: "application/json" } });
    await page.waitForSelector(OVERLAY.code);
    expect(await page.getAttribute(OVERLAY.host, "data-factor")).toBe("OTT");
    // The flow allows the app and the recovery codes too: the overlay offers both as choices.
    await page.waitForSelector(`${CHOICES}[data-factor="TOTP"]`);
    expect(await page.locator(CHOICES).allTextContents()).toEqual([
      "Use your authenticator app",
      "Use a recovery code",
    ]);
    await page.click(`${CHOICES}[data-factor="TOTP"]`);
    await page.waitForSelector(`${OVERLAY.host}[data-factor="TOTP"]`, { state: "attached" });
    // A typed code without a resend; the mailed code's factor is now the choice.
    expect(await page.locator(OVERLAY.resend).isHidden()).toBe(true);
    expect(await page.locator(CHOICES).allTextContents()).toEqual(["Use a recovery code"]);
    expect(await page.locator(`${OVERLAY.host} #stepUpUseCode`).isVisible()).toBe(true);
    // A wrong code stays in the overlay with the attempts, as a wrong mailed code does.
    const right = appCode(secret, clock);
    await page.fill(OVERLAY.code, `${right.slice(0, 5)}${(Number(right[5]) + 1) % 10}`);
    await page.click(OVERLAY.verify);
    await page.waitForSelector(`${OVERLAY.status}[data-state="error"]`);
    expect(await page.textContent(OVERLAY.status)).toMatch(/Attempts: 1 of \d+/);
    expect(await page.getAttribute(OVERLAY.host, "data-factor")).toBe("TOTP");
    await page.fill(OVERLAY.code, right);
    await page.click(OVERLAY.verify);
    const done = await pending(page);
    expect(done).toMatchObject({ status: 200, body: { username: "admin", factors: ["pwd", "otp"] } });
    expect(await page.locator(OVERLAY.host).count()).toBe(0);
    // The app's code went to its own URL, as the mailed code goes to /login/mfa-ott: JSON with the
    // session's CSRF header, no MFA session id (the binding cookie decides).
    sent.stop();
    expect(sent.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /mfa/select-factor",
      "POST /login/mfa-totp",
      "POST /login/mfa-totp",
    ]);
    const verify = sent.requests[2];
    expect(JSON.parse(verify?.body ?? "{}")).toEqual({ token: expect.stringMatching(/^\d{6}$/) });
    expect(verify?.headers).toMatchObject({
      "content-type": "application/json",
      "x-csrf-token": expect.any(String),
    });
    expect(verify?.headers["x-mfa-session-id"]).toBeUndefined();
  });
});
