import { type HttpServerHandle, serveHttp } from "@keyward/adapters-http";
import { ServerAddress } from "@keyward/core";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHostApp, type HostApp } from "../../examples/h3-host/src/host-app.js";
import type { Mail } from "../../examples/h3-host/src/mail-delivery.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";
import { OVERLAY } from "./sdk-e2e-support.js";

// The example host (examples/h3-host) as its README starts it, with the test's mailer: one start, two
// browser sessions in the run's Chromium. Its users came with bcrypt (ana, root) and argon2 (bo) hashes.

describeInBrowser("the example host (examples/h3-host)", () => {
  const mails: Mail[] = [];
  let host: HostApp;
  let server: HttpServerHandle;
  let base: string;
  const sessions: BrowserSession[] = [];

  /** The first mail to `to` after the first `after` mails (sent after the answer: waited for). */
  async function mailTo(to: string, after: number): Promise<Mail> {
    for (let i = 0; i < 200; i++) {
      const mail = mails.slice(after).find((m) => m.to === to);
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no mail to ${to}`);
  }
  const codeIn = (mail: Mail): string => /code is (\d+)/.exec(mail.text)?.[1] ?? "";
  const hashOf = (id: string): string => host.users.records.get(id)?.passwordHash ?? "";

  async function signIn(page: Page, username: string, password: string, landing: string): Promise<void> {
    await page.goto(`${base}/login`);
    await page.fill("#username", username);
    await page.fill("#password", password);
    await Promise.all([page.waitForURL(`${base}${landing}`), page.click("#loginButton")]);
  }

  beforeAll(async () => {
    host = await createHostApp({
      mailer: { send: async (mail) => void mails.push(mail) },
      properties: { ...LOW_COST_SCRYPT },
    });
    server = await serveHttp(host.app, { port: 0 });
    host.platform.resolve(ServerAddress).port = server.port;
    base = server.url;
  });
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await server?.close();
    await host?.platform.stop();
  });

  it("JSON login with an argon2 hash answers tokens and upgrades the hash; the policy refuses the API (403, anonymous 401)", async () => {
    expect(hashOf("u-bo")).toMatch(/^\$argon2id\$/);
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "BO", password: "bo-coffee-at-noon" }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    expect(hashOf("u-bo")).toMatch(/^\$scrypt\$/);
    const refused = await fetch(`${base}/api/reports`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      403,
      "ACCESS_DENIED",
    ]);
    const anonymous = await fetch(`${base}/api/reports`);
    expect(anonymous.status).toBe(401);
    const page = await fetch(`${base}/reports`, { redirect: "manual" });
    expect([page.status, page.headers.get("location")]).toEqual([302, "/login"]);
    for (const token of ["", "not.a.jwt", `${accessToken}x`, "x".repeat(9_000)]) {
      const forged = await fetch(`${base}/api/reports`, { headers: { authorization: `Bearer ${token}` } });
      expect(forged.status, token.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(forged.status, token.slice(0, 20)).toBeLessThan(500);
    }
    // The host's script folder serves its files and nothing around them.
    for (const path of ["/host/%2e%2e/package.json", "/host/..%2fREADME.md", "/host/.%2e/src/main.ts"]) {
      const answer = await fetch(`${base}${path}`, { redirect: "manual" });
      expect([answer.status === 200, answer.status < 500], path).toEqual([false, true]);
    }
    const wrong = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "bo", password: "bo-coffee-at-noon!" }),
    });
    expect(wrong.status).toBe(401);
  });

  it("form login with a bcrypt hash in Chromium; the upgrade lands in the host's store; /reports is 403 for a user", async () => {
    const session = await launchBrowser();
    sessions.push(session);
    expect(hashOf("u-ana")).toMatch(/^\$2a\$/);
    await signIn(session.page, "ana", "ana-tea-for-two", "/");
    expect(await session.page.textContent("#who")).toBe("Signed in as ana");
    expect(hashOf("u-ana")).toMatch(/^\$scrypt\$/);
    const reports = await session.page.goto(`${base}/reports`);
    expect(reports?.status()).toBe(403);
  });

  it("the SDK's step-up on the host's page: the dialog takes the code mailed to ana's address, the retried request answers 200", async () => {
    const { page } = sessions[0] as BrowserSession;
    // A CSP refusal (an inline script) or a script error (top-level await in a classic script) shows here.
    const scriptErrors: string[] = [];
    page.on("pageerror", (e) => scriptErrors.push(e.message));
    page.on("console", (m) => /Content Security Policy/i.test(m.text()) && scriptErrors.push(m.text()));
    await page.goto(`${base}/`);
    const before = mails.length;
    await page.click("#settingsButton");
    await page.waitForSelector(OVERLAY.code);
    const mail = await mailTo("ana@example.test", before);
    await page.fill(OVERLAY.code, codeIn(mail));
    await page.click(OVERLAY.verify);
    await page.waitForSelector("#settingsResult:not(:empty)");
    expect(JSON.parse((await page.textContent("#settingsResult")) ?? "")).toEqual({
      status: 200,
      body: { username: "ana", factors: ["pwd", "otp"] },
    });
    expect(scriptErrors).toEqual([]);
  });

  it("an administrator signs in with the code mailed to their address, and reaches /reports", async () => {
    const session = await launchBrowser();
    sessions.push(session);
    const { page } = session;
    const before = mails.length;
    await signIn(page, "root", "root-keeps-the-keys", "/mfa/challenge/ott");
    const mail = await mailTo("root@example.test", before);
    expect(mail.subject).toBe("Your sign-in code");
    await page.fill("input[name=token]", codeIn(mail));
    await Promise.all([page.waitForURL(`${base}/`), page.click("#verifyButton")]);
    expect(await page.textContent("#who")).toBe("Signed in as root");
    const reports = await page.goto(`${base}/reports`);
    expect(reports?.status()).toBe(200);
    expect(hashOf("u-root")).toMatch(/^\$scrypt\$/);
  });
});
