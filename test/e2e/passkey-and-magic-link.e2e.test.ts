import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity/identity-test-server.js";
import {
  addVirtualAuthenticator,
  type BrowserSession,
  describeInBrowser,
  launchBrowser,
} from "./browser-harness.js";

/** Who the page's session is, from /api/me. */
function me(page: Page): Promise<{ username?: string; method?: string; code?: string }> {
  return page.evaluate(
    async () =>
      (await (await fetch("/api/me", { headers: { accept: "application/json" } })).json()) as {
        username?: string;
        method?: string;
        code?: string;
      },
  );
}

/** Sets the username field's value without focusing it. */
function setUsername(page: Page, value: string): Promise<void> {
  return page.$eval(
    "#passkeyUsername",
    (el, v) => {
      (el as unknown as { value: string }).value = v;
    },
    value,
  );
}

/**
 * Signs out through POST /logout with the session's CSRF token, as the demo's sign-out button does.
 * The token comes from `GET /csrf`, not the login page: its script's passkey autofill would sign the
 * registered passkey in at once (the virtual authenticator simulates presence).
 */
async function signOut(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/csrf`);
  const token = ((await page.evaluate(async () => (await fetch("/csrf")).json())) as { token: string }).token;
  const status = await page.evaluate(async (csrf) => {
    return (await fetch("/logout", { method: "POST", headers: { "X-CSRF-TOKEN": csrf }, redirect: "manual" }))
      .type;
  }, token);
  expect(status).toBe("opaqueredirect");
  expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
}

describeInBrowser("passkeys and magic links in a real browser (virtual authenticator)", () => {
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;
  let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;

  /**
   * Opens the passkey page with its autofill (conditional) request left waiting: the virtual
   * authenticator answers conditional requests at once when presence is simulated, so presence is
   * paused while the page loads and restored before the button starts the modal ceremony.
   */
  async function openWithAutofillWaiting(page: Page): Promise<void> {
    const { cdp, authenticatorId } = authenticator;
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto(`${base}/passkeys`);
    await page.waitForSelector('#platform-page-config[data-conditional="pending"]', { state: "attached" });
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
  }
  const outbox = join(mkdtempSync(join(tmpdir(), "e2e-outbox-")), "outbox.jsonl");

  beforeAll(async () => {
    server = await startIdentityServer({
      security: demoSecurity,
      properties: { "platform.auth.ott.outbox-file": outbox },
    });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    authenticator = await addVirtualAuthenticator(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("signs in with a password and registers a passkey", async () => {
    const { page } = browser;
    await page.goto(`${base}/login`);
    await page.fill("#username", "user");
    await page.fill("#password", "password");
    await Promise.all([page.waitForURL(`${base}/`), page.click("#loginButton")]);
    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "Laptop");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');
    expect(await page.textContent("#passkeyList")).toContain("Laptop");
  });

  it("signs out, then signs in with the passkey and a username", async () => {
    const { page } = browser;
    await signOut(page, base);
    await openWithAutofillWaiting(page);
    await setUsername(page, "user");
    await Promise.all([page.waitForURL(`${base}/`), page.click("#passkeySignInButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
  });

  it("signs in without a username (a discoverable credential)", async () => {
    const { page } = browser;
    await signOut(page, base);
    await openWithAutofillWaiting(page);
    await setUsername(page, "");
    await Promise.all([page.waitForURL(`${base}/`), page.click("#passkeySignInButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
  });

  it("signs in through conditional mediation (autofill): the page's mediation 'conditional' request answers", async () => {
    const { page } = browser;
    await signOut(page, base);
    // With presence simulated, the virtual authenticator picks the passkey for the autofill request.
    await Promise.all([page.waitForURL(`${base}/`), page.goto(`${base}/passkeys`)]);
    expect(await me(page)).toMatchObject({ username: "user", method: "passkey" });
  });

  it("lists and deletes the passkey", async () => {
    const { page } = browser;
    await page.goto(`${base}/passkeys`);
    await page.waitForSelector('#passkeyList[data-count="1"]');
    await page.click("#passkeyList button.passkey-delete");
    await page.waitForSelector('#passkeyList[data-count="0"]', { state: "attached" });
    const listed = await page.evaluate(async () => (await fetch("/webauthn/credentials")).json());
    expect(listed).toEqual([]);
  });

  it("signs in with a magic link read from the outbox", async () => {
    const { page } = browser;
    await signOut(page, base);
    await page.goto(`${base}/login/ott`);
    await page.fill("#ottGenerateUsername", "user");
    await Promise.all([page.waitForURL(`${base}/login/ott?sent`), page.click("#ottGenerateButton")]);
    let line: { link: string } | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      // A whole line only: the file can exist before its first append has landed.
      const text = existsSync(outbox) ? readFileSync(outbox, "utf8") : "";
      if (text.endsWith("\n")) line = JSON.parse(text.trim().split("\n").at(-1) ?? "null") ?? undefined;
      if (!line) await new Promise((r) => setTimeout(r, 20));
    }
    expect(line?.link).toMatch(new RegExp(`^${base}/login/ott\\?token=`));
    await page.goto(line!.link);
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
    await Promise.all([page.waitForURL(`${base}/`), page.click("#ottSignInButton")]);
    expect(await me(page)).toMatchObject({ username: "user", method: "ott" });
  });
});
