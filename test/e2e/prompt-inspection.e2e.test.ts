import { afterAll, beforeAll, expect, it } from "vitest";
import { SealedEvidenceToken } from "../../packages/core/src/decisions/evidence/sealed-evidence-service.js";
import { cleanPackage, V20 } from "../../packages/core/src/inspection/corpus/clean-packages.fixture.js";
import type { InspectedPackage } from "../../packages/core/src/inspection/inspected-package.js";
import { PromptInspectionToken } from "../../packages/core/src/inspection/service/prompt-inspection.js";
import { loadBundleCatalog } from "../../packages/core/src/prompts/manifest/bundle-catalog.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";
import { type BrowserSession, describeInBrowser, launchBrowser } from "./browser-harness.js";

const OVERVIEW = "/platform/admin/prompt-inspection";
const CLEAN_ID = "pkg-e2e-clean";
const BROKEN_ID = "pkg-e2e-off-by-one";
const HOSTILE = `<img src=x onerror="alert('xss')">`;

/** One clean v20 package and one whose subject is drawn one letter off, sealed and inspected in the demo. */
async function seedInspected(demo: RunningDemo): Promise<void> {
  const catalog = loadBundleCatalog();
  const at = Date.now() - 60_000;
  const clean = cleanPackage(catalog, { golden: "internal-read", id: BROKEN_ID });
  // The subject drawn one letter off, with markup after it: a mismatch whose line must show as text.
  const drawn = clean.prompts.map((p) => ({
    ...p,
    user: p.user.replace("subject: alice", `subject: alicf${HOSTILE}`),
  }));
  const packages: InspectedPackage[] = [
    { ...cleanPackage(catalog, { golden: "internal-read", id: CLEAN_ID }), at },
    { ...clean, prompts: drawn, at: at + 1 },
  ];
  const sealed = demo.platform.resolve(SealedEvidenceToken);
  const inspection = demo.platform.resolve(PromptInspectionToken);
  for (const pkg of packages) {
    expect((await sealed.record(pkg)).sealed).toBe(true);
    expect((await inspection.inspect(pkg.id))?.packageId).toBe(pkg.id);
  }
}

// The prompt inspector's console pages in real Chromium, over the demo's own inspection stores.
describeInBrowser("Prompt inspection console pages in a real browser", () => {
  let demo: RunningDemo;
  let admin: BrowserSession;
  const cspViolations: string[] = [];
  const dialogs: string[] = [];
  beforeAll(async () => {
    demo = await startDemo({}, { ...NO_MFA_FOR_ADMINS, "platform.prompt-inspection.initial-delay": "PT1H" });
    await seedInspected(demo);
    admin = await launchBrowser();
    admin.page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    // A script run by an injected value would show itself as a dialog (alert): none may open.
    admin.page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const { page } = admin;
    await page.goto(`${demo.base}/login`);
    await page.fill("#username", "admin");
    await page.fill("#password", "admin");
    await Promise.all([page.waitForURL(`${demo.base}/`), page.click("#loginButton")]);
  });
  afterAll(async () => {
    await admin?.close();
    await demo?.close();
  });

  it("the overview counts the period by verdict and check, and links a verdict to its packages", async () => {
    const { page } = admin;
    await page.goto(`${demo.base}${OVERVIEW}`);
    expect(await page.getAttribute('a[aria-current="page"]', "href")).toBe(OVERVIEW);
    expect(Number(await page.textContent('tr[data-verdict="FAIL"] .count'))).toBeGreaterThanOrEqual(1);
    expect(Number(await page.textContent('tr[data-check="FACT_ACCURACY"] .count'))).toBeGreaterThanOrEqual(1);
    await Promise.all([page.waitForURL(/\/packages\?verdict=FAIL/), page.click('tr[data-verdict="FAIL"] a')]);
    expect(await page.locator(`tr[data-package="${BROKEN_ID}"]`).count()).toBe(1);
    expect(await page.locator(`tr[data-package="${CLEAN_ID}"]`).count()).toBe(0);
  });

  it("the packages page filters with its form, and a bad filter answers the page with an error", async () => {
    const { page } = admin;
    await page.goto(`${demo.base}${OVERVIEW}/packages`);
    // The demo's sample fact source knows no user-1: the clean package is INCOMPLETE there, never FAIL.
    const verdict = (await page.getAttribute(`tr[data-package="${CLEAN_ID}"]`, "data-verdict"))!;
    expect(["PASS", "INCOMPLETE"]).toContain(verdict);
    await page.selectOption('select[name="verdict"]', verdict);
    await Promise.all([
      page.waitForURL(new RegExp(`verdict=${verdict}`)),
      page.click(".packages-filter button"),
    ]);
    expect(await page.locator(`tr[data-package="${CLEAN_ID}"]`).count()).toBe(1);
    expect(await page.locator(`tr[data-package="${BROKEN_ID}"]`).count()).toBe(0);
    const bad = await page.goto(`${demo.base}${OVERVIEW}/packages?from=yesterday`);
    expect(bad?.status()).toBe(400);
    expect(await page.textContent(".notice.error")).toMatch(/from/);
  });

  it("the package page shows the finding beside the prompt line it stands on", async () => {
    const { page } = admin;
    await page.goto(`${demo.base}${OVERVIEW}/packages?verdict=FAIL`);
    await Promise.all([
      page.waitForURL(/\/packages\/pkg-e2e/),
      page.click(`tr[data-package="${BROKEN_ID}"] a`),
    ]);
    expect(await page.textContent(".package-id")).toBe(BROKEN_ID);
    const flagged = page.locator("ol.prompt-lines li.flagged").filter({ hasText: "alicf" }).first();
    expect(await flagged.locator(".prompt-line").textContent()).toContain(`subject: alicf${HOSTILE}`);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await flagged.locator('.finding[data-check="FACT_ACCURACY"]').textContent()).toContain(
      "VALUE_DIFFERS",
    );
    const missing = await page.goto(`${demo.base}${OVERVIEW}/packages/no-such-package`);
    expect(missing?.status()).toBe(404);
    // Hostile and oversized input: a refused id, an oversized cursor, an unknown parameter; never a 500.
    expect((await page.goto(`${demo.base}${OVERVIEW}/packages/%3Cscript%3E`))?.status()).toBe(400);
    expect((await page.goto(`${demo.base}${OVERVIEW}/packages?cursor=${"x".repeat(5_000)}`))?.status()).toBe(
      400,
    );
    expect((await page.goto(`${demo.base}${OVERVIEW}?limit=5`))?.status()).toBe(400);
    // Anonymous: no page (the chain sends a browser to sign in, an API caller a 401).
    const anonymous = await fetch(`${demo.base}${OVERVIEW}`, { redirect: "manual" });
    expect([302, 401]).toContain(anonymous.status);
  });

  it("a rehearsal through the real stack records REHEARSAL evidence; the pages hold the CSP", async () => {
    const { page } = admin;
    await page.goto(`${demo.base}${OVERVIEW}`);
    const token = await page.getAttribute('meta[name="_csrf"]', "content");
    const answer = await page.request.post(`${demo.base}/platform/admin/api/prompt-inspection/rehearsals`, {
      headers: { "x-csrf-token": token ?? "" },
      data: { candidate: V20, from: Date.now() - 3_600_000 },
    });
    expect(answer.status()).toBe(200);
    const body = await answer.json();
    expect(body.record.kind).toBe("REHEARSAL");
    expect(body.rehearsal.packages).toBeGreaterThanOrEqual(2);
    expect(body.rehearsal.verdicts.FAIL).toBe(0);
    // The overview lists it among the rehearsals.
    await page.reload();
    const row = page.locator(`.rehearsals tr[data-evidence="${body.record.id}"]`);
    expect(await row.getAttribute("data-outcome")).toBe("OK");
    expect(await row.textContent()).toContain(V20);
    expect(cspViolations).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
