import { describe, expect, it } from "vitest";
import { mfaConfigJson } from "./mfa-config-json.js";
import { mfaUrls } from "./mfa-urls.js";

const flow = { typeName: "mfa", factors: ["OTT", "PASSKEY"] as const, requiredFactors: 1 };

describe("mfaConfigJson", () => {
  it("answers the URL groups with the flow description", () => {
    expect(mfaConfigJson(mfaUrls({ primary: "form" }), flow)).toEqual({
      primary: {
        formLoginPage: "/login",
        formLoginProcessing: "/login",
        // The form primary is the flow's one processing URL; it takes JSON too (no /api/mfa/login here).
        restLoginProcessing: "/login",
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
    // A REST primary serves no form processing URL of its own: both name the JSON one.
    expect(body.primary.formLoginProcessing).toBe("/admin/api/mfa/login");
    expect(body.api.logout).toBe("/admin/api/logout");
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });

  it("leaves out the groups of a factor the flow does not have (their URLs answer nothing)", () => {
    const ottOnly = mfaConfigJson(mfaUrls({ primary: "form" }), { ...flow, factors: ["OTT"] });
    expect(ottOnly).not.toHaveProperty("passkey");
    expect(ottOnly).not.toHaveProperty("webauthn");
    expect(ottOnly.ott?.loginProcessing).toBe("/login/mfa-ott");
    const passkeyOnly = mfaConfigJson(mfaUrls({ primary: "form" }), { ...flow, factors: ["PASSKEY"] });
    expect(passkeyOnly).not.toHaveProperty("ott");
    expect(passkeyOnly.api).not.toHaveProperty("requestOttCode");
    expect(passkeyOnly.webauthn?.assertionVerify).toBe("/login/mfa-webauthn");
  });

  it("omits urlPrefix without one", () => {
    expect("urlPrefix" in mfaConfigJson(mfaUrls({ primary: "form" }), flow)).toBe(false);
  });
});
