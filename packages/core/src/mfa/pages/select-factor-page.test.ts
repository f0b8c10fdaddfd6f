import { describe, expect, it } from "vitest";
import {
  expectMfaPageContract,
  expectNoInjection,
  form,
  forms,
  HOSTILE,
  pageConfig,
} from "./page-contract.test-support.js";
import { renderSelectFactorPage, type SelectFactorPageModel } from "./select-factor-page.js";

const model: SelectFactorPageModel = {
  csrfToken: "csrf-1",
  mfaSessionId: "mfa-1",
  selectFactorUrl: "/mfa/select-factor",
  cancelUrl: "/mfa/cancel",
  factors: ["OTT", "PASSKEY"],
  completedFactors: [],
  requiredFactors: 2,
  username: "alice",
};

describe("renderSelectFactorPage", () => {
  it("honours the page contract", () => {
    const html = renderSelectFactorPage(model);
    expectMfaPageContract(html, { csrfToken: "csrf-1", mfaSessionId: "mfa-1" });
    expect(pageConfig(html)).toEqual({
      "mfa-session-id": "mfa-1",
      "select-factor-url": "/mfa/select-factor",
    });
  });

  it("has one POST form per factor, with its factorType, to the select-factor endpoint", () => {
    const html = renderSelectFactorPage(model);
    for (const [id, type] of [
      ["selectOttForm", "OTT"],
      ["selectPasskeyForm", "PASSKEY"],
    ] as const) {
      const f = form(html, id);
      expect(f.attrs).toMatchObject({ method: "post", action: "/mfa/select-factor" });
      expect(f.inputs.find((i) => i.name === "factorType")?.value).toBe(type);
      expect(f.inputs.map((i) => i.name).sort()).toEqual(["_csrf", "factorType", "mfaSessionId"]);
    }
    expect(form(html, "cancelForm").attrs).toMatchObject({ method: "post", action: "/mfa/cancel" });
    expect(html).toContain("Step 1 of 2");
  });

  it("leaves completed factors out and advances the progress line", () => {
    const html = renderSelectFactorPage({ ...model, completedFactors: ["OTT"] });
    expect(forms(html).map((f) => f.attrs.id)).toEqual(["selectPasskeyForm", "cancelForm"]);
    expect(html).toContain("Step 2 of 2");
  });

  it("offers only cancel when no factor is left", () => {
    const html = renderSelectFactorPage({ ...model, factors: ["OTT"], completedFactors: ["OTT"] });
    expect(forms(html).map((f) => f.attrs.id)).toEqual(["cancelForm"]);
    expect(html).toContain('id="noFactorLeft"');
  });

  it("escapes hostile values", () => {
    const html = renderSelectFactorPage({
      ...model,
      username: HOSTILE,
      error: HOSTILE,
      mfaSessionId: HOSTILE,
      csrfToken: HOSTILE,
    });
    expectNoInjection(html);
    expect(pageConfig(html)["mfa-session-id"]).toBe(HOSTILE);
    expect(form(html, "selectOttForm").inputs.find((i) => i.name === "mfaSessionId")?.value).toBe(HOSTILE);
  });
});
