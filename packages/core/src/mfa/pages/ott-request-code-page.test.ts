import { describe, expect, it } from "vitest";
import { type OttRequestCodePageModel, renderOttRequestCodePage } from "./ott-request-code-page.js";
import {
  decode,
  expectMfaPageContract,
  expectNoInjection,
  form,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";

const model: OttRequestCodePageModel = {
  csrfToken: "csrf-1",
  mfaSessionId: "mfa-1",
  generateCodeUrl: "/admin/mfa/ott/generate-code",
  cancelUrl: "/admin/mfa/cancel",
  destination: "a•••@example.com",
  codeLength: 6,
};

describe("renderOttRequestCodePage", () => {
  it("honours the page contract", () => {
    const html = renderOttRequestCodePage(model);
    expectMfaPageContract(html, {
      csrfToken: "csrf-1",
      mfaSessionId: "mfa-1",
      pageScript: "/js/platform-ott-request-page.js",
    });
    expect(pageConfig(html)).toEqual({
      "mfa-session-id": "mfa-1",
      "ott-request-url": "/admin/mfa/ott/generate-code",
    });
    const request = form(html, "ottRequestForm");
    expect(request.inputs.map((i) => i.name)).toEqual(["_csrf", "mfaSessionId"]);
    expect(request.buttons).toEqual([{ id: "sendCodeButton", type: "submit" }]);
  });

  it("says where the code goes and posts to generate-code without script", () => {
    const html = renderOttRequestCodePage(model);
    expect(html).toContain("a•••@example.com");
    expect(html).toContain("6-digit code");
    expect(form(html, "ottRequestForm").attrs).toMatchObject({
      method: "post",
      action: "/admin/mfa/ott/generate-code",
    });
    expect(form(html, "cancelForm").attrs.action).toBe("/admin/mfa/cancel");
  });

  it("links to another method only when one is available", () => {
    expect(renderOttRequestCodePage(model)).not.toContain("tryAnotherMethodLink");
    const html = renderOttRequestCodePage({ ...model, selectFactorPageUrl: "/mfa/select-factor" });
    expect(tags(html, "a").find((a) => a.id === "tryAnotherMethodLink")?.href).toBe("/mfa/select-factor");
  });

  it("escapes hostile values", () => {
    const html = renderOttRequestCodePage({
      ...model,
      destination: HOSTILE,
      error: HOSTILE,
      mfaSessionId: HOSTILE,
    });
    expectNoInjection(html);
    expect(decode(html)).toContain(HOSTILE);
  });
});
