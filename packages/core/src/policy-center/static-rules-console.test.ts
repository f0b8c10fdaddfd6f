import { describe, expect, it } from "vitest";
import { manual } from "../authz/policy/policy.fixture.js";
import { apiChain, chain } from "../authz/static-rules/static-rule.fixture.js";
import { antMatcher } from "../web/request-matcher.js";
import { BOB, policyCenterSetup, ROOT } from "./policy-center.fixture.js";
import { STATIC_RULES_IMPORT_PATH } from "./static-rules-console.js";

const PAGE = "/admin/policy-center";

describe("Policy Center: static rules", () => {
  it("lists the chains' static rules on the policies tab and imports the importable ones once", async () => {
    const s = policyCenterSetup({ chains: () => [apiChain()] });
    const tab = await s.admin({ url: `${PAGE}?tab=policies` });
    expect(tab.status).toBe(200);
    expect(tab.html).toContain("<h2>Static rules</h2>");
    expect(tab.html).toContain("not importable");
    expect(tab.html).toMatch(/Import \d+ static rules as policies/);

    const imported = await s.admin({ url: STATIC_RULES_IMPORT_PATH, form: {} });
    expect(imported.status).toBe(303);
    expect(imported.location).toBe(`${PAGE}?tab=policies&notice=imported`);
    const first = await s.policies.findAll({ source: "IMPORTED" });
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((p) => p.approvalStatus === "NOT_REQUIRED")).toBe(true);

    const again = await s.admin({ url: STATIC_RULES_IMPORT_PATH, form: {} });
    expect(again.location).toBe(`${PAGE}?tab=policies&notice=nothing-imported`);
    expect((await s.policies.findAll({ source: "IMPORTED" })).length).toBe(first.length);
    const after = await s.admin({ url: `${PAGE}?tab=policies` });
    expect(after.html).toContain("imported as");
    expect(after.html).toContain("Nothing left to import.");
  });

  it("marks a policy a static rule shadows, and says it takes effect once the rule is gone", async () => {
    const s = policyCenterSetup({
      chains: () => [
        chain("api", (a) => a.requestMatchers("/api/admin/**").hasRole("ADMIN"), antMatcher("/api/**")),
      ],
    });
    const shadowed = await s.pap.create(
      manual({ name: "Ops <b>", targets: [{ targetType: "URL", targetIdentifier: "/api/admin/users" }] }),
      ROOT,
    );
    const free = await s.pap.create(
      manual({ name: "Elsewhere", targets: [{ targetType: "URL", targetIdentifier: "/reports/**" }] }),
      ROOT,
    );
    const page = await s.admin({ url: `${PAGE}/policies/${shadowed.id}` });
    expect(page.html).toContain("Shadowed by a static rule");
    expect(page.html).toContain("/api/admin/users");
    expect(page.html).toContain("only once that rule is removed from code");
    expect(page.html).not.toContain("Ops <b>");
    const other = await s.admin({ url: `${PAGE}/policies/${free.id}` });
    expect(other.html).not.toContain("Shadowed by a static rule");
  });

  it("the import is ADMIN only, a form post, and refuses a form with fields", async () => {
    const s = policyCenterSetup({ chains: () => [apiChain()] });
    expect((await s.call({ url: STATIC_RULES_IMPORT_PATH, form: {}, as: BOB })).status).toBe(403);
    expect((await s.call({ url: STATIC_RULES_IMPORT_PATH, form: {}, as: undefined })).status).toBe(401);
    expect((await s.admin({ method: "GET", url: STATIC_RULES_IMPORT_PATH })).status).toBe(405);
    const refused = await s.admin({ url: STATIC_RULES_IMPORT_PATH, form: { keys: "<script>" } });
    expect(refused.status).toBe(400);
    expect(refused.html).not.toContain("<script>");
    expect(await s.policies.findAll({ source: "IMPORTED" })).toEqual([]);
  });

  it("shows the history view's table on a policy's page when a revision store is registered", async () => {
    const s = policyCenterSetup({ history: async () => [] });
    const p = await s.pap.create(manual(), ROOT);
    const page = await s.admin({ url: `${PAGE}/policies/${p.id}` });
    expect(page.html).toContain("No changes recorded for this policy.");
  });
});
