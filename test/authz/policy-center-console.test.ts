import type { Authentication, Platform } from "@keyward/core";
import { PolicyAdministrationService } from "@keyward/core/authz";
import { ManagedResourceRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The Policy Center on the demo's chains: sign-in, ADMIN, CSRF and the CSP are the chain's, not the
// console's own (its unit tests in packages/core/src/policy-center cover the pages and posts).
let demo: RunningDemo;
let platform: Platform;
let admin: Browser;
let resourceId = "";
let policyId = "";

async function signIn(username: string, password: string): Promise<Browser> {
  const b = new Browser(demo.base);
  const csrf = await b.csrfFrom("/login");
  expect((await b.postForm("/login", { username, password, _csrf: csrf })).status).toBe(302);
  return b;
}

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  platform = demo.platform;
  admin = await signIn("admin", "admin");
  const key = { resourceType: "URL", resourceIdentifier: "/api/orders", httpMethod: "GET" } as const;
  resourceId = (await platform.resolve(ManagedResourceRepository).findByKey(key))!.id;
  const seeder: Authentication = {
    userId: "s",
    username: "seed",
    authorities: ["ROLE_ADMIN"],
    method: "form",
    authenticatedAt: 0,
    factors: [],
  };
  policyId = (await platform.resolve(PolicyAdministrationService).list({}, seeder))[0]!.id;
}, 60_000);
afterAll(() => demo.close());

/** Every form post of the console, with a body it would take. */
function posts(): [string, Record<string, string>][] {
  return [
    ...["define", "exclude", "restore"].flatMap((a): [string, Record<string, string>][] => [
      [`/admin/policy-center/resources/${resourceId}/${a}`, { version: "1", friendlyName: "x" }],
      [`/admin/workbench/resources/${resourceId}/${a}`, { version: "1", friendlyName: "x" }],
    ]),
    [`/admin/policy-center/policies/${policyId}/edit`, { version: "1", name: "x" }],
    ...["activate", "deactivate", "approve", "reject", "delete"].map(
      (a): [string, Record<string, string>] => [`/admin/policy-center/policies/${policyId}/${a}`, {}],
    ),
  ];
}

describe("the Policy Center on the demo", () => {
  it("sends a browser without a sign-in to the login page and answers a user 403", async () => {
    const anonymous = await new Browser(demo.base).navigate("/admin/policy-center");
    expect([anonymous.status, anonymous.headers.get("location")]).toEqual([302, "/login"]);
    const user = await signIn("user", "password");
    expect((await user.navigate("/admin/policy-center")).status).toBe(403);
    expect((await user.navigate(`/admin/policy-center/policies/${policyId}`)).status).toBe(403);
  });

  it("serves the console under the platform's CSP, with the CSRF field in its forms and its stylesheet", async () => {
    const res = await admin.navigate("/admin/policy-center");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('<link rel="stylesheet" href="/js/platform-console.css">');
    expect(html).toMatch(
      /<form method="post" action="\/admin\/policy-center\/resources\/[^"]+\/define" class="define"><input type="hidden" name="_csrf" value="[^"]+">/,
    );
    expect(html).not.toMatch(/<script(?! src=)|<style/);
    const css = await fetch(`${demo.base}/js/platform-console.css`);
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
  });

  it("refuses every form post without the CSRF token (403), changing nothing", async () => {
    const before = await platform.resolve(ManagedResourceRepository).findById(resourceId);
    for (const [path, form] of posts()) {
      const res = await admin.postForm(path, form);
      expect(res.status, path).toBe(403);
      const wrong = await admin.postForm(path, { ...form, _csrf: "forged" });
      expect(wrong.status, path).toBe(403);
    }
    expect(await platform.resolve(ManagedResourceRepository).findById(resourceId)).toEqual(before);
  });

  it("takes a form post with the page's CSRF field: 303 back with a notice", async () => {
    const html = await (await admin.navigate("/admin/policy-center?q=/api/orders")).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const repository = platform.resolve(ManagedResourceRepository);
    const { version } = (await repository.findById(resourceId))!;
    const res = await admin.postForm(`/admin/policy-center/resources/${resourceId}/exclude`, {
      _csrf: csrf,
      version: String(version),
      back: "q=/api/orders",
    });
    expect([res.status, res.headers.get("location")]).toEqual([
      303,
      "/admin/policy-center?tab=resources&q=%2Fapi%2Forders&notice=excluded",
    ]);
    const back = await admin.postForm(`/admin/workbench/resources/${resourceId}/restore`, {
      _csrf: csrf,
      version: String((await repository.findById(resourceId))!.version),
    });
    expect(back.status).toBe(303);
    expect((await repository.findById(resourceId))?.status).toBe("NEEDS_DEFINITION");
  });
});
