// The browser project's global setup: one headless Chromium for the whole run, launched in vitest's
// main process and closed there at the end. Test workers connect to it (browser-harness.ts) and
// open a fresh context per session: a launch costs about a second of CPU, a context milliseconds.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Playwright's WebSocket endpoint of the shared Chromium; empty when none could be launched. */
    chromiumEndpoint: string;
  }
}

/** Debian's Chromium (`apt-get install chromium`): `.ci/run` installs it; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches the shared Chromium (when installed) and returns its teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    // The tests skip (or, under CI, fail saying why): nothing to launch.
    project.provide("chromiumEndpoint", "");
    return async () => {};
  }
  const server = await chromium.launchServer({
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
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
