import { describe, expect, it } from "vitest";
import { mfaConfigJson } from "./mfa-config-json.js";
import { mfaUrls } from "./mfa-urls.js";

const flow = { typeName: "mfa", factors: ["OTT", "PASSKEY"] as const, requiredFactors: 1 };

describe("mfaConfigJson", () => {
  it("answers the original's shape with the flow description", () => {
    expect(mfaConfigJson(mfaUrls({ primary: "form" }), flow)).toEqual({
      primary: {
        formLoginPage: "/login",
        formLoginProcessing: "/login",
        restLoginProcessing: "/api/mfa/login",
        loginFailure: "/login?error",
        loginSuccess: "/",
      },
      mfa: {
        selectFactor: "/mfa/select-factor",
        success: "/",
        failure: "/mfa/failure",
        cancel: "/mfa/cancel",
      },
      ott: {
        requestCodeUi: "/mfa/ott/request-code-ui",
        challengeUi: "/mfa/challenge/ott",
        loginProcessing: "/login/mfa-ott",
        codeGeneration: "/mfa/ott/generate-code",
      },
      passkey: {
        challengeUi: "/mfa/challenge/passkey",
        loginProcessing: "/login/mfa-webauthn",
        registrationProcessing: "/webauthn/register",
      },
      webauthn: {
        assertionOptions: "/mfa/webauthn/authenticate/options",
        assertionVerify: "/login/mfa-webauthn",
      },
      api: {
        selectFactor: "/mfa/select-factor",
        cancel: "/mfa/cancel",
        status: "/api/mfa/status",
        requestOttCode: "/mfa/ott/generate-code",
        config: "/api/mfa/config",
        logout: "/logout",
      },
      flow: { typeName: "mfa", factors: ["OTT", "PASSKEY"], requiredFactors: 1 },
    });
  });

  it("carries urlPrefix and the prefixed URLs, and is plain JSON", () => {
    const body = mfaConfigJson(mfaUrls({ primary: "rest", urlPrefix: "/admin" }), {
      typeName: "mfa_admin",
      factors: ["OTT"],
      requiredFactors: 1,
    });
    expect(body.urlPrefix).toBe("/admin");
    expect(body.api.config).toBe("/admin/api/mfa/config");
    expect(body.primary.restLoginProcessing).toBe("/admin/api/mfa/login");
    expect(body.api.logout).toBe("/admin/api/logout");
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });

  it("omits urlPrefix without one", () => {
    expect("urlPrefix" in mfaConfigJson(mfaUrls({ primary: "form" }), flow)).toBe(false);
  });
});
