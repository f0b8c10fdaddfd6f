import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
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

/** The page's path (without origin and query). */
function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Clicks and waits until the page it leads to has loaded. */
async function clickAndLoad(page: Page, selector: string): Promise<void> {
  await page.click(selector);
  await page.waitForLoadState("load");
}

/** What the in-page passkey ceremony saw. */
interface CeremonyResult {
  optionsStatus: number;
  allowCredentials: number;
  mfaSessionId: string;
  status: number;
  body: { success?: boolean; redirectUrl?: string; code?: string };
}

/**
 * Drives the MFA passkey ceremony from the challenge page, as its script will (the page script
 * arrives with the SDK issue): POST the assertion options with the meta CSRF token and the page's
 * MFA session id, `navigator.credentials.get`, then POST the assertion JSON (base64url) to the
 * page's processing URL.
 */
function passkeyCeremony(page: Page): Promise<CeremonyResult> {
  return page.evaluate(async () => {
    // No DOM lib in this project's tsconfig: the browser APIs used here, typed by hand.
    interface El {
      getAttribute(name: string): string | null;
    }
    interface Assertion {
      id: string;
      rawId: ArrayBuffer;
      type: string;
      authenticatorAttachment: string | null;
      getClientExtensionResults(): Record<string, unknown>;
      response: {
        clientDataJSON: ArrayBuffer;
        authenticatorData: ArrayBuffer;
        signature: ArrayBuffer;
        userHandle: ArrayBuffer | null;
      };
    }
    const g = globalThis as unknown as {
      document: { querySelector(selector: string): El | null };
      navigator: { credentials: { get(options: unknown): Promise<Assertion | null> } };
    };
    const attr = (selector: string, name: string): string => {
      const value = g.document.querySelector(selector)?.getAttribute(name);
      if (!value) throw new Error(`no ${name} on ${selector}`);
      return value;
    };
    const fromB64url = (s: string): Uint8Array => {
      const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
      return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    };
    const toB64url = (buffer: ArrayBuffer): string =>
      btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");

    const config = "#platform-page-config";
    const mfaSessionId = attr(config, "data-mfa-session-id");
    const headers = {
      accept: "application/json",
      "content-type": "application/json",
      [attr('meta[name="_csrf_header"]', "content")]: attr('meta[name="_csrf"]', "content"),
      "X-MFA-Session-Id": mfaSessionId,
    };
    const optionsRes = await fetch(attr(config, "data-assertion-options-url"), {
      method: "POST",
      headers,
      body: "{}",
    });
    const options = (await optionsRes.json()) as {
      challenge: string;
      rpId?: string;
      timeout?: number;
      userVerification?: string;
      allowCredentials?: { id: string; type: string; transports?: string[] }[];
    };
    const allow = options.allowCredentials ?? [];
    const credential = await g.navigator.credentials.get({
      publicKey: {
        challenge: fromB64url(options.challenge),
        rpId: options.rpId,
        timeout: options.timeout,
        userVerification: options.userVerification,
        allowCredentials: allow.map((c) => ({
          type: c.type,
          id: fromB64url(c.id),
          transports: c.transports,
        })),
      },
    });
    if (!credential) throw new Error("navigator.credentials.get returned nothing");
    const r = credential.response;
    const json = {
      id: credential.id,
      rawId: toB64url(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: {
        clientDataJSON: toB64url(r.clientDataJSON),
        authenticatorData: toB64url(r.authenticatorData),
        signature: toB64url(r.signature),
        userHandle: r.userHandle ? toB64url(r.userHandle) : undefined,
      },
    };
    const res = await fetch(attr(config, "data-login-processing-url"), {
      method: "POST",
      headers,
      body: JSON.stringify(json),
    });
    return {
      optionsStatus: optionsRes.status,
      allowCredentials: allow.length,
      mfaSessionId,
      status: res.status,
      body: (await res.json()) as CeremonyResult["body"],
    };
  });
}

describeInBrowser("MFA with a passkey as the second factor in a real browser (virtual authenticator)", () => {
  const file = newOutboxFile();
  let server: IdentityTestServer;
  let browser: BrowserSession;
  let base: string;
  let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;

  /**
   * Signs in with admin's password on the MFA login page; the code challenge starts by itself.
   * Presence is paused meanwhile: the page's passkey autofill would otherwise sign a registered
   * passkey in at once (its script aborts the waiting request before the form is sent).
   */
  async function password(page: Page): Promise<string> {
    const before = outbox(file).length;
    const { cdp, authenticatorId } = authenticator;
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto(`${base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(`${base}/mfa/challenge/ott`), page.click("#loginButton")]);
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    const line = await waitForLine(file, before + 1);
    expect(line).toMatchObject({ channel: "mfa-code", username: "admin" });
    return line.token;
  }

  /** Signs out through POST /logout with the session's CSRF token (from `GET /csrf`, see password()). */
  async function signOut(page: Page): Promise<void> {
    await page.goto(`${base}/csrf`);
    const token = ((await page.evaluate(async () => (await fetch("/csrf")).json())) as { token: string })
      .token;
    const type = await page.evaluate(
      async (csrf) =>
        (await fetch("/logout", { method: "POST", headers: { "X-CSRF-TOKEN": csrf }, redirect: "manual" }))
          .type,
      token,
    );
    expect(type).toBe("opaqueredirect");
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
  }

  /** On the passkey challenge page: runs the ceremony and checks admin is signed in with pwd + hwk. */
  async function completeWithPasskey(page: Page): Promise<void> {
    expect(pathOf(page)).toBe("/mfa/challenge/passkey");
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
    const result = await passkeyCeremony(page);
    expect(result.optionsStatus).toBe(200);
    expect(result.allowCredentials).toBe(1);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toEqual({ success: true, redirectUrl: "/" });
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "hwk"] });
  }

  beforeAll(async () => {
    server = await startMfaServer({ outbox: file, security: mfaWithPasskeySecurity(1) });
    base = server.url; // http://localhost:PORT: WebAuthn refuses 127.0.0.1
    browser = await launchBrowser();
    authenticator = await addVirtualAuthenticator(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("admin signs in with the password and the emailed code on the MFA pages", async () => {
    const { page } = browser;
    const code = await password(page);
    expect((await me(page)).code).toBe("AUTHENTICATION_REQUIRED");
    await page.fill("input[name=token]", code);
    await Promise.all([page.waitForURL(`${base}/`), page.click("#verifyButton")]);
    expect(await me(page)).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
  });

  it("registers a passkey on /passkeys", async () => {
    const { page } = browser;
    await page.goto(`${base}/passkeys`);
    await page.fill("#passkeyLabel", "Admin laptop");
    await page.click("#passkeyRegisterButton");
    await page.waitForSelector('#passkeyList[data-count="1"]');
    expect(await page.textContent("#passkeyList")).toContain("Admin laptop");
  });

  it("signs out, signs in with the password, follows Try another method and completes with the passkey", async () => {
    const { page } = browser;
    await signOut(page);
    await password(page);
    await clickAndLoad(page, "#tryAnotherMethodLink");
    expect(pathOf(page)).toBe("/mfa/select-factor");
    await clickAndLoad(page, "#selectPasskeyButton");
    await completeWithPasskey(page);
  });

  it("the passkey challenge page completes the ceremony (passkey chosen through the select-factor API)", async () => {
    const { page } = browser;
    await signOut(page);
    await password(page);
    const selected = await page.evaluate(async () => {
      const g = globalThis as unknown as {
        document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };
      };
      const csrf = g.document.querySelector('meta[name="_csrf"]')?.getAttribute("content") ?? "";
      const res = await fetch("/mfa/select-factor", {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json", "X-CSRF-TOKEN": csrf },
        body: JSON.stringify({ factorType: "PASSKEY" }),
      });
      return { status: res.status, body: (await res.json()) as { state?: string; nextStepUrl?: string } };
    });
    expect(selected).toMatchObject({
      status: 200,
      body: { state: "PASSKEY_CHALLENGE", nextStepUrl: "/mfa/challenge/passkey" },
    });
    await page.goto(`${base}/mfa/challenge/passkey`);
    await completeWithPasskey(page);
  });
});
