import { ManagedResourceRepository, PolicyRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";

// Manual create with preview in real Chromium, on the create tab as the legacy builder route serves it
// (the console's `?tab=create` page wraps the same body).
describeInBrowser("Policy Center: manual create with preview in a real browser", () => {
  let demo: RunningDemo;
  let browser: BrowserSession;
  const cspViolations: string[] = [];
  beforeAll(async () => {
    demo = await startDemo({}, NO_MFA_FOR_ADMINS);
    browser = await launchBrowser();
    browser.page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it("without script: an administrator adds a template condition, previews, and saves a policy", async () => {
    const { page } = browser;
    // The forms must work without the page script: it is not loaded in this test.
    await page.route("**/js/platform-policy-center-page.js", (route) => route.abort());
    const resources = demo.platform.resolve(ManagedResourceRepository);
    const resource = await resources.findByKey({
      resourceType: "URL",
      resourceIdentifier: "/api/orders/{id}",
      httpMethod: "DELETE",
    });
    if (!resource) throw new Error("DELETE /api/orders/{id} is not a managed resource");
    await resources.update(resource.id, resource.version, { friendlyName: "<b>Cancel</b> an order" });

    await page.goto(`${demo.base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(`${demo.base}/`), page.click("#loginButton")]);

    await page.goto(`${demo.base}/admin/policy-builder/from-resource?resourceId=${resource.id}`);
    expect(await page.textContent("#resource-heading")).toBe("Resource: <b>Cancel</b> an order");
    expect(await page.inputValue('[name="target.0.identifier"]')).toBe("/api/orders/{id}");
    expect(await page.inputValue('[name="target.0.method"]')).toBe("DELETE");

    await page.fill('[name="name"]', "Cancel: managers in office hours");
    await page.fill('[name="rule.0.name"]', "managers");
    await page.fill('[name="rule.0.condition.0"]', "hasRole('MANAGER')");
    await page.fill('[name="tpl.business-hours.days"]', "MON TUE WED THU FRI SAT SUN");
    await Promise.all([page.waitForLoadState("load"), page.click('button[value="template:business-hours"]')]);
    // Joined `and` by default: office hours narrow the managers' condition.
    expect(await page.inputValue('[name="rule.0.condition.0"]')).toBe(
      "(hasRole('MANAGER')) and (timeBetween('09:00', '18:00'))",
    );
    // A sample decision that does not depend on the hour the test runs at.
    await page.fill('[name="rule.0.condition.0"]', "hasRole('MANAGER') and !#ai.isBlocked()");
    await page.fill('[name="sample.roles"]', "MANAGER");

    // Enter in a field previews (the first submit button), never saves.
    await Promise.all([page.waitForLoadState("load"), page.press('[name="name"]', "Enter")]);
    expect(await page.textContent("#policy-preview")).toContain("hasRole('MANAGER') and !#ai.isBlocked()");
    expect(await page.textContent("#preview-decision")).toMatch(
      /DELETE \/api\/orders\/1 as simulated \(ROLE_MANAGER\): granted by this policy/,
    );
    expect(await page.textContent(".impact-resources")).toContain("<b>Cancel</b> an order");
    expect(await demo.platform.resolve(PolicyRepository).findAll({ text: "Cancel: managers" })).toEqual([]);

    await Promise.all([
      page.waitForURL(/\/admin\/policy-center\?tab=policies&notice=saved$/),
      page.click("#save-button"),
    ]);
    const [saved] = await demo.platform.resolve(PolicyRepository).findAll({ text: "Cancel: managers" });
    expect(saved).toMatchObject({
      source: "MANUAL",
      approvalStatus: "NOT_REQUIRED",
      targets: [{ httpMethod: "DELETE" }],
    });
    expect((await resources.findById(resource.id))?.status).toBe("NEEDS_DEFINITION");
    expect(cspViolations).toEqual([]);
    await page.unroute("**/js/platform-policy-center-page.js");
  });

  it("with its page script: a quick grant by JSON and a preview in place, without leaving the page", async () => {
    const { page } = browser;
    const resources = demo.platform.resolve(ManagedResourceRepository);
    const found = await resources.findByKey({
      resourceType: "URL",
      resourceIdentifier: "/api/orders/{id}",
      httpMethod: "GET",
    });
    if (!found) throw new Error("GET /api/orders/{id} is not a managed resource");
    await resources.update(found.id, found.version, {
      status: "PERMISSION_CREATED",
      permission: {
        id: "perm-order-read",
        name: "Read an order",
        description: "",
        createdAt: 0,
        createdBy: "test",
      },
    });
    await page.goto(`${demo.base}/admin/policy-builder/from-resource?resourceId=${found.id}`);
    await page.waitForSelector('.create-tab[data-enhanced="true"]');
    const url = page.url();

    await page.fill('[name="quick.roles"]', "AUDITOR");
    await page.click("#quick-create-button");
    await page.waitForSelector('#quick-create-status[data-kind="ok"]');
    expect(await page.textContent("#quick-create-status")).toMatch(
      /^Granted: policy 'Grant: .*' created; the resource is POLICY_CONNECTED\.$/,
    );
    expect(await page.textContent("#resource-status")).toBe("POLICY_CONNECTED");
    expect(page.url()).toBe(url);

    await page.fill('[name="rule.0.name"]', "auditors");
    await page.fill('[name="rule.0.condition.0"]', "hasRole('AUDITOR')");
    await page.fill('[name="sample.roles"]', "AUDITOR");
    await page.click("#preview-button");
    await page.waitForSelector('main[data-swaps="1"] #policy-preview');
    expect(await page.textContent("#preview-decision")).toMatch(/granted/);
    // The quick grant made just before is an earlier policy on the same target: it shadows the draft.
    expect(await page.textContent("#policy-preview")).toMatch(/Shadowed by[\s\S]*Grant: /);
    expect(page.url()).toBe(url);
    expect(cspViolations).toEqual([]);
  });
});
