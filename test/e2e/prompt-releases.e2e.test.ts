import { InstanceHeartbeatStore, ReleaseRegistry } from "@keyward/core/ports";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PROMPT_KEY, putRelease, startReleaseDemo, V18, V19, V20 } from "../governance/release-demo.js";
import type { RunningDemo } from "../support/demo-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";

const PAGE = "/platform/admin/prompt-quality/releases";

// The releases page in real Chromium: two administrators, each in their own browser context.
describeInBrowser("Prompt releases console page in a real browser", () => {
  let demo: RunningDemo;
  let admin: BrowserSession;
  let admin2: BrowserSession;
  const cspViolations: string[] = [];
  beforeAll(async () => {
    demo = await startReleaseDemo();
    [admin, admin2] = await Promise.all([launchBrowser(), launchBrowser()]);
    for (const { page } of [admin, admin2]) {
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
    }
  });
  afterAll(async () => {
    await admin?.close();
    await admin2?.close();
    await demo?.close();
  });

  async function signIn({ page }: BrowserSession, username: string): Promise<void> {
    await page.goto(`${demo.base}/login`);
    await page.fill("#username", username);
    await page.fill("#password", username);
    await Promise.all([page.waitForURL(`${demo.base}/`), page.click("#loginButton")]);
    await page.goto(`${demo.base}${PAGE}`);
    await page.waitForSelector('.releases-page[data-enhanced="true"]');
  }

  it("lists the releases and their next states, and shows a blocked transition's blockers", async () => {
    await signIn(admin, "admin");
    const { page } = admin;
    expect(await page.textContent(`tr[data-version="${V20}"] .status`)).toBe("AVAILABLE");
    expect(await page.textContent(`tr[data-version="${V20}"] li[data-target="SHADOW"]`)).toMatch(/SHADOW/);
    expect(await page.getAttribute('a[aria-current="page"]', "href")).toBe(PAGE);
    expect(await page.isVisible(".releases-enforcement")).toBe(true);

    const form = "#release-transition-form";
    await page.fill(`${form} [name="promptKey"]`, PROMPT_KEY);
    await page.fill(`${form} [name="promptVersion"]`, V20);
    // The canary fields show for CANARY only, and a preview answers the share asked for.
    await page.selectOption(`${form} [name="targetReleaseStatus"]`, "CANARY");
    expect(await page.isVisible(`${form} .canary-fields`)).toBe(true);
    await page.fill(`${form} [name="canaryPercent"]`, "10");
    await page.fill(`${form} [name="canaryTenants"]`, "acme, globex");
    await page.fill(`${form} [name="rationale"]`, "a share first");
    await page.click(`${form} button[value="preview"]`);
    await page.locator("#release-result").filter({ hasText: "→ CANARY" }).waitFor();
    expect(await page.textContent("#release-result")).toContain(
      "canary: 10% of requesters; tenants acme, globex",
    );
    await page.selectOption(`${form} [name="targetReleaseStatus"]`, "ACTIVE");
    expect(await page.isVisible(`${form} .canary-fields`)).toBe(false);
    await page.fill(`${form} [name="rationale"]`, "straight to production");
    await page.click(`${form} button[value="preview"]`);
    await page.waitForSelector('#release-result[data-kind="error"]');
    const preview = await page.textContent("#release-result");
    expect(preview).toContain("Dry run: would be BLOCKED: AVAILABLE → ACTIVE");
    expect(preview).toContain("blocked by ILLEGAL_STATE_TRANSITION");

    await page.click(`${form} button[value="apply"]`);
    await page.locator("#release-result").filter({ hasNotText: "Dry run" }).waitFor();
    expect(await page.textContent("#release-result")).toContain("BLOCKED: AVAILABLE → ACTIVE");
    await page.reload();
    expect(await page.textContent(".release-history")).toContain("TRANSITION_BLOCKED");
  });

  it("an emergency stop run by one administrator is approved by another", async () => {
    await putRelease(demo, V20, "CANARY");
    const { page } = admin;
    const form = "#release-rollback-form";
    await page.fill(`${form} [name="promptKey"]`, PROMPT_KEY);
    await page.fill(`${form} [name="fromVersion"]`, V20);
    await page.fill(`${form} [name="toVersion"]`, "2026.07.30-v19");
    await page.fill(`${form} [name="reason"]`, "v20 blocks too much");
    await page.check(`${form} [name="emergency"]`);
    await page.click(`${form} button[value="apply"]`);
    await page.waitForSelector('#release-result[data-outcome="AWAITING_APPROVAL"]');
    await page.reload();
    const stop = page.locator(".emergency-stop");
    expect(await stop.textContent()).toContain("You ran this stop");
    expect(await stop.locator("button").count()).toBe(0);
    const key = await stop.getAttribute("data-execution-key");

    await signIn(admin2, "admin2");
    await admin2.page.click(`.emergency-stop[data-execution-key="${key}"] button[data-approve="RATIFY"]`);
    await admin2.page.waitForSelector('#release-result[data-outcome="RATIFIED"]');
    await admin2.page.reload();
    expect(await admin2.page.textContent(".emergency-stops")).toContain("None open.");
    expect(cspViolations).toEqual([]);
  });

  it("shows each scope's executing release, its canary share and every instance's convergence", async () => {
    await putRelease(demo, V20, "CANARY");
    const rows = (await demo.platform.resolve(ReleaseRegistry).head("PLATFORM_GLOBAL")).releases;
    const hash = (v: string) => rows.find((r) => r.promptVersion === v)!.artifactHash;
    const entry = (
      promptVersion: string,
      source: "REGISTRY" | "CANARY",
      bundleHash = hash(promptVersion),
    ) => ({
      registryScope: "PLATFORM_GLOBAL",
      promptKey: PROMPT_KEY,
      promptVersion,
      bundleHash,
      source,
    });
    // Three more "instances" beat through the store port beside the demo's own.
    const store = demo.platform.resolve(InstanceHeartbeatStore);
    const now = Date.now();
    const beat = (instanceId: string, at: number, serving: ReturnType<typeof entry>[]) =>
      store.beat({ instanceId, startedAt: now - 600_000, at, serving, selector: "REGISTRY" });
    await beat("node-current", now, [entry(V19, "REGISTRY"), entry(V20, "CANARY")]);
    await beat("node-behind", now, [entry(V18, "REGISTRY", "0".repeat(64))]);
    await beat("node-quiet", now - 120_000, [entry(V19, "REGISTRY")]);

    const { page } = admin;
    await page.goto(`${demo.base}${PAGE}`);
    await page.waitForSelector('.releases-page[data-enhanced="true"]');
    const scope = '.release-scope[data-scope="PLATFORM_GLOBAL"] .convergence';
    expect(await page.textContent(`${scope} tr[data-executing="ACTIVE"]`)).toContain(V19);
    expect(await page.textContent(`${scope} tr[data-executing="CANARY"] .canary-share`)).toBe(
      "the whole scope",
    );
    const verdict = (id: string) => page.getAttribute(`${scope} tr[data-instance="${id}"]`, "data-verdict");
    expect(await verdict("node-current")).toBe("CONVERGED");
    expect(await verdict("node-behind")).toBe("PENDING");
    expect(await verdict("node-quiet")).toBe("SILENT");
    // The demo decides with the configuration selector: listed, not following the registry.
    expect(await page.locator('.instances tr[data-verdict="NOT_FOLLOWING"]').count()).toBe(1);
    expect(await page.textContent(".instances")).toContain("80 s after the change");

    // The lagging instance catches up and a new one starts: Refresh rewrites the verdicts in place.
    await beat("node-behind", Date.now(), [entry(V19, "REGISTRY"), entry(V20, "CANARY")]);
    await beat("node-new", Date.now(), [entry(V19, "REGISTRY")]);
    await page.click("#convergence-refresh");
    await page.waitForSelector('#convergence-status[data-state="done"]');
    expect(await verdict("node-behind")).toBe("CONVERGED");
    expect(await page.textContent(`${scope} tr[data-instance="node-behind"] .serves`)).toContain(
      `CANARY ${V20}`,
    );
    expect(await page.getAttribute('.instances tr[data-instance="node-behind"]', "data-verdict")).toBe(
      "CONVERGED",
    );
    expect(await page.textContent("#convergence-status")).toContain("1 instance(s) not listed here");
    expect(cspViolations).toEqual([]);
  });
});
