import { describe, expect, it } from "vitest";
import { type MfaConfigurePageModel, renderMfaConfigurePage } from "./mfa-configure-page.js";
import {
  decode,
  expectMfaPageContract,
  expectNoInjection,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";

const model: MfaConfigurePageModel = {
  csrfToken: "csrf-1",
  username: "alice",
  factors: [
    { type: "OTT", enrolled: true, detail: "a•••@example.com" },
    { type: "PASSKEY", enrolled: false },
  ],
  passkeyManagementUrl: "/passkeys",
  successUrl: "/",
};

describe("renderMfaConfigurePage", () => {
  it("honours the page contract", () => {
    const html = renderMfaConfigurePage(model);
    expectMfaPageContract(html, { csrfToken: "csrf-1" });
    expect(pageConfig(html)).toEqual({ "passkey-management-url": "/passkeys" });
  });

  it("lists which factors the user has and links to enroll a passkey", () => {
    const html = renderMfaConfigurePage(model);
    expect(tags(html, "li")).toEqual([
      { id: "factor-OTT", "data-enrolled": "true" },
      { id: "factor-PASSKEY", "data-enrolled": "false" },
    ]);
    expect(html).toContain("One-time code: set up (a•••@example.com)");
    expect(html).toContain("Passkey: not set up");
    expect(tags(html, "a").find((a) => a.id === "enrollPasskeyLink")?.href).toBe("/passkeys");
  });

  it("escapes hostile values", () => {
    const html = renderMfaConfigurePage({
      ...model,
      username: HOSTILE,
      passkeyManagementUrl: HOSTILE,
      factors: [{ type: "OTT", enrolled: true, detail: HOSTILE }],
    });
    expectNoInjection(html);
    expect(decode(html)).toContain(HOSTILE);
    expect(pageConfig(html)["passkey-management-url"]).toBe(HOSTILE);
  });
});
