import { describe, expect, it } from "vitest";
import {
  expectMfaPageContract,
  expectNoInjection,
  form,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";
import { type PasskeyChallengePageModel, renderPasskeyChallengePage } from "./passkey-challenge-page.js";

const model: PasskeyChallengePageModel = {
  csrfToken: "csrf-1",
  mfaSessionId: "mfa-1",
  loginProcessingUrl: "/login/mfa-webauthn",
  assertionOptionsUrl: "/mfa/webauthn/authenticate/options",
  failureUrl: "/mfa/failure",
  cancelUrl: "/mfa/cancel",
  selectFactorPageUrl: "/mfa/select-factor",
};

describe("renderPasskeyChallengePage", () => {
  it("honours the page contract", () => {
    const html = renderPasskeyChallengePage(model);
    expectMfaPageContract(html, {
      csrfToken: "csrf-1",
      mfaSessionId: "mfa-1",
      pageScript: "/js/platform-passkey-page.js",
    });
    expect(pageConfig(html)).toEqual({
      "failure-url": "/mfa/failure",
      "mfa-session-id": "mfa-1",
      "assertion-options-url": "/mfa/webauthn/authenticate/options",
      "login-processing-url": "/login/mfa-webauthn",
    });
    const passkey = form(html, "passkeyForm");
    expect(passkey.attrs).toMatchObject({ method: "post", action: "/login/mfa-webauthn" });
    expect(passkey.buttons).toEqual([{ id: "authButton", type: "button" }]);
  });

  it("says JavaScript is required and still offers another method and cancel without it", () => {
    const html = renderPasskeyChallengePage(model);
    expect(html).toMatch(/<noscript>[\s\S]*JavaScript[\s\S]*<\/noscript>/);
    expect(tags(html, "a").find((a) => a.id === "tryAnotherMethodLink")?.href).toBe("/mfa/select-factor");
    expect(form(html, "cancelForm").attrs).toMatchObject({ method: "post", action: "/mfa/cancel" });
  });

  it("escapes hostile values", () => {
    const html = renderPasskeyChallengePage({ ...model, error: HOSTILE, mfaSessionId: HOSTILE });
    expectNoInjection(html);
    expect(pageConfig(html)["mfa-session-id"]).toBe(HOSTILE);
  });
});
