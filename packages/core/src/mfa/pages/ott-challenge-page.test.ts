import { describe, expect, it } from "vitest";
import { type OttChallengePageModel, renderOttChallengePage } from "./ott-challenge-page.js";
import {
  expectMfaPageContract,
  expectNoInjection,
  form,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";

const model: OttChallengePageModel = {
  csrfToken: "csrf-1",
  mfaSessionId: "mfa-1",
  loginProcessingUrl: "/login/mfa-ott",
  generateCodeUrl: "/mfa/ott/generate-code",
  failureUrl: "/mfa/failure",
  cancelUrl: "/mfa/cancel",
  codeLength: 8,
  attemptsMade: 2,
  maxAttempts: 5,
};

describe("renderOttChallengePage", () => {
  it("honours the page contract", () => {
    const html = renderOttChallengePage(model);
    expectMfaPageContract(html, {
      csrfToken: "csrf-1",
      mfaSessionId: "mfa-1",
      pageScript: "/js/platform-ott-verify-page.js",
    });
    expect(pageConfig(html)).toEqual({
      "attempts-made": "2",
      "max-attempts": "5",
      "failure-url": "/mfa/failure",
      "mfa-session-id": "mfa-1",
    });
    expect(form(html, "ottVerifyForm").buttons).toEqual([{ id: "verifyButton", type: "submit" }]);
    expect(form(html, "ottResendForm").buttons).toEqual([{ id: "resendButton", type: "submit" }]);
  });

  it("asks for a numeric one-time code of the configured length", () => {
    const token = form(renderOttChallengePage(model), "ottVerifyForm").inputs.find((i) => i.name === "token");
    expect(token).toMatchObject({
      inputmode: "numeric",
      autocomplete: "one-time-code",
      pattern: "[0-9]{8}",
      minlength: "8",
      maxlength: "8",
      required: "",
    });
  });

  it("works without script: verify, resend and cancel are plain POST forms", () => {
    const html = renderOttChallengePage(model);
    expect(form(html, "ottVerifyForm").attrs).toMatchObject({ method: "post", action: "/login/mfa-ott" });
    expect(form(html, "ottVerifyForm").inputs.map((i) => i.name)).toEqual(["token", "_csrf", "mfaSessionId"]);
    expect(form(html, "ottResendForm").attrs).toMatchObject({
      method: "post",
      action: "/mfa/ott/generate-code",
    });
    expect(form(html, "cancelForm").attrs).toMatchObject({ method: "post", action: "/mfa/cancel" });
  });

  it("shows attempts made and allowed", () => {
    expect(renderOttChallengePage(model)).toContain("Attempts: 2 of 5");
  });

  it("offers Try another method only when another factor is available", () => {
    expect(renderOttChallengePage(model)).not.toContain("tryAnotherMethodLink");
    const html = renderOttChallengePage({ ...model, selectFactorPageUrl: "/mfa/select-factor" });
    expect(tags(html, "a").find((a) => a.id === "tryAnotherMethodLink")?.href).toBe("/mfa/select-factor");
  });

  it("escapes hostile values", () => {
    const html = renderOttChallengePage({
      ...model,
      error: HOSTILE,
      status: HOSTILE,
      destination: HOSTILE,
      mfaSessionId: HOSTILE,
      failureUrl: HOSTILE,
    });
    expectNoInjection(html);
    expect(pageConfig(html)["failure-url"]).toBe(HOSTILE);
  });
});
