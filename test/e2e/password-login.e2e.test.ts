import { afterAll, beforeAll, expect, it } from "vitest";
import {
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity/identity-test-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";

describeInBrowser("password login in a real browser", () => {
  let server: IdentityTestServer;
  let browser: BrowserSession;
  beforeAll(async () => {
    server = await startIdentityServer({ security: demoSecurity });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("signs in through the generated login page and lands signed in", async () => {
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await page.fill("#username", "user");
    await page.fill("#password", "password");
    await Promise.all([page.waitForURL(`${server.url}/`), page.click("#loginButton")]);
    expect(await page.textContent("body")).toContain('"user":"user"');
    const me = await page.evaluate(async () => (await fetch("/api/me")).json());
    expect(me).toMatchObject({ username: "user", authenticatedBy: "session" });
  });
});
