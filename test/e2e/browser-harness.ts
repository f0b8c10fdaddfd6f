import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { describe, inject } from "vitest";
import { CHROMIUM_PATH } from "./chromium-server.js";

export { CHROMIUM_PATH };

/** True when a real Chromium is installed here. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * A describe block for real-browser tests. Without Chromium it skips on a developer machine (saying
 * why), but under CI=true it runs, so a missing browser fails the run instead of hiding.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (chromiumAvailable() || process.env.CI === "true") describe(name, body);
  else describe.skip(`${name} (skipped: no Chromium at ${CHROMIUM_PATH}; apt-get install chromium)`, body);
}

/** A fresh browser context (its own cookies, storage and authenticators) and its first page. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

// The run's one Chromium (chromium-server.ts, the browser project's global setup), connected to once
// per worker and shared by the files that worker runs.
let connected: Promise<Browser> | undefined;

function sharedChromium(): Promise<Browser> {
  const endpoint = inject("chromiumEndpoint");
  if (!endpoint) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  connected ??= chromium.connect(endpoint);
  return connected;
}

/**
 * A fresh context (its own cookies, storage and authenticators) in the run's headless Chromium,
 * and its first page: nothing carries over from another session. `close()` closes the context.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  const context = await (await sharedChromium()).newContext();
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

/** A CDP virtual authenticator (platform, resident keys, user verification) on the page. */
export async function addVirtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
