import type { Authentication } from "@keyward/core";
import { PolicyAdministrationService } from "@keyward/core/authz";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";

// The Policy Center's main paths in headless Chromium on the demo: filter, define, exclude and
// restore a resource; edit, deactivate and activate a policy; approve a PENDING one. Plain form posts
// (no script on the console), under the platform's CSP: any violation fails the run.

const SEEDER: Authentication = {
  userId: "system",
  username: "system:e2e",
  authorities: ["ROLE_ADMIN"],
  method: "form",
  authenticatedAt: 0,
  factors: [],
};

describeInBrowser("the Policy Center in a real browser", () => {
  let demo: RunningDemo;
  let browser: BrowserSession;
  let page: Page;
  const violations: string[] = [];

  beforeAll(async () => {
    demo = await startDemo({}, NO_MFA_FOR_ADMINS);
    await demo.platform.resolve(PolicyAdministrationService).create(
      {
        name: "Drafted: reports for managers",
        description: "Proposed by the model",
        effect: "ALLOW",
        source: "AI_GENERATED",
        confidenceScore: 0.9,
        aiModel: "offline",
        targets: [{ targetType: "URL", targetIdentifier: "/reports/**" }],
        rules: [{ name: "managers", conditions: [{ expression: "hasRole('MANAGER')" }] }],
      },
      SEEDER,
    );
    browser = await launchBrowser();
    page = browser.page;
    // Each violation is logged to the console, where the test collects it (Chromium logs its own too).
    await browser.context.addInitScript({
      content:
        'document.addEventListener("securitypolicyviolation", (e) => console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));',
    });
    page.on("console", (m) => {
      if (/CSP violation|Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${demo.base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(`${demo.base}/`), page.click("#loginButton")]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  const notice = () => page.locator("p.notice").textContent();
  const row = (resource: RegExp) => page.locator("tr", { has: page.locator("code", { hasText: resource }) });
  const submit = async (click: () => Promise<void>) => {
    await Promise.all([page.waitForEvent("load"), click()]);
  };

  it("filters resources, defines one with an edited name, excludes and restores another", async () => {
    await page.goto(`${demo.base}/admin/policy-center`);
    expect(await page.title()).toBe("Policy Center");
    // The stylesheet applied: the console's background is the CSS's, not the browser's default.
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(246, 247, 249)");

    await page.fill('input[name="q"]', "/api/orders");
    await page.selectOption('select[name="status"]', "NEEDS_DEFINITION");
    await submit(() => page.click('form.filters button[type="submit"]'));
    expect(page.url()).toContain("q=%2Fapi%2Forders");
    const codes = await page.locator("tbody code").allTextContents();
    expect(codes.length).toBeGreaterThan(1);
    expect(codes.every((c) => c.includes("/api/orders"))).toBe(true);

    const list = row(/^GET \/api\/orders$/);
    await list.locator('input[name="friendlyName"]').fill("Read the orders");
    await submit(() => list.locator("form.define button").click());
    expect(await notice()).toBe("The resource is defined as a permission.");
    expect(page.url()).toContain("q=%2Fapi%2Forders");
    expect(await row(/^GET \/api\/orders$/).count()).toBe(0); // the filter still shows NEEDS_DEFINITION only

    await submit(() =>
      row(/^POST \/api\/orders$/)
        .locator("form.exclude button")
        .click(),
    );
    expect(await notice()).toBe("The resource is excluded from authorization management.");
    await page.selectOption('select[name="status"]', "EXCLUDED");
    await submit(() => page.click('form.filters button[type="submit"]'));
    await submit(() =>
      row(/^POST \/api\/orders$/)
        .locator("form.restore button")
        .click(),
    );
    expect(await notice()).toBe("The resource is restored; it needs a definition again.");

    await page.goto(`${demo.base}/admin/policy-center?q=/api/orders`);
    const defined = row(/^GET \/api\/orders$/);
    expect(await defined.locator(".permission").textContent()).toBe("Permission: Read the orders");
    expect(
      await row(/^POST \/api\/orders$/)
        .locator(".status")
        .textContent(),
    ).toBe("NEEDS_DEFINITION");
  });

  it("edits a policy, deactivates and activates it", async () => {
    await page.goto(`${demo.base}/admin/policy-center?tab=policies`);
    await submit(() => page.click("text=Orders: cancel"));
    expect(await page.locator('input[name="version"]').first().inputValue()).toBe("1");
    await page.fill('input[name="priority"]', "25");
    await page.fill(
      'textarea[name="description"]',
      "Only administrators cancel orders (edited in the console).",
    );
    await submit(() => page.click("form.policy-edit button"));
    expect(await notice()).toBe("The policy is saved.");
    expect(await page.locator('input[name="priority"]').inputValue()).toBe("25");
    expect(await page.locator('input[name="version"]').first().inputValue()).toBe("2");

    await submit(() => page.click("form.deactivate button"));
    expect(await notice()).toBe("The policy is inactive.");
    await submit(() => page.click("form.activate button"));
    expect(await notice()).toBe("The policy is active.");
  });

  it("approves a PENDING policy found through the approval filter", async () => {
    await page.goto(`${demo.base}/admin/policy-center?tab=policies`);
    await page.selectOption('select[name="approvalStatus"]', "PENDING");
    await submit(() => page.click('form.filters button[type="submit"]'));
    expect(await page.locator("table.policies tbody tr").count()).toBe(1);
    await submit(() => page.click("text=Drafted: reports for managers"));
    await submit(() => page.click("form.approve button"));
    expect(await notice()).toBe("The policy is approved.");
    expect(await page.locator(".facts .approval").textContent()).toBe("APPROVED");
    expect(await page.locator("form.approve").count()).toBe(0);
  });

  it("raised no CSP violation on any console page", () => {
    expect(violations).toEqual([]);
  });
});
