import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { describe } from "vitest";

/** Debian's Chromium (`apt-get install chromium`): `.ci/run` installs it; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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

/** A fresh headless Chromium profile, closed and deleted by `close()`. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launches headless Chromium with the flags this machine needs (closed network, root). */
export async function launchBrowser(): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), "platform-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
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
