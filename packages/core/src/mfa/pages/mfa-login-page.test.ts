import { describe, expect, it } from "vitest";
import { type MfaLoginPageModel, renderMfaLoginPage } from "./mfa-login-page.js";
import {
  decode,
  expectMfaPageContract,
  expectNoInjection,
  form,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";

const model: MfaLoginPageModel = {
  csrfToken: "csrf-1",
  processingUrl: "/admin/login",
  selectFactorUrl: "/admin/mfa/select-factor",
  tokenPersistence: "memory",
  mfaSdkRequired: false,
};

describe("renderMfaLoginPage", () => {
  it("honours the page contract", () => {
    const html = renderMfaLoginPage(model);
    expectMfaPageContract(html, { csrfToken: "csrf-1", pageScript: "/js/platform-login-page.js" });
    expect(pageConfig(html)).toEqual({
      "token-persistence": "memory",
      "select-factor-url": "/admin/mfa/select-factor",
      "primary-login-processing": "/admin/login",
      "mfa-sdk-required": "false",
    });
    const login = form(html, "loginForm");
    expect(login.inputs.map((i) => i.name)).toEqual(["username", "password", "_csrf"]);
    expect(login.inputs.find((i) => i.name === "password")?.type).toBe("password");
    expect(login.buttons).toEqual([{ id: "loginButton", type: "submit" }]);
  });

  it("offers passkey autofill and a passkey button only when a passkey chain exists", () => {
    expect(renderMfaLoginPage(model)).toContain('autocomplete="username"');
    expect(renderMfaLoginPage(model)).not.toContain("passkeySignInButton");
    const html = renderMfaLoginPage({
      ...model,
      passkeyLogin: {
        assertionOptions: "/webauthn/authenticate/options",
        loginProcessing: "/login/webauthn",
      },
    });
    expect(html).toContain('autocomplete="username webauthn"');
    expect(html).toContain('<button id="passkeySignInButton" type="button">');
    expect(pageConfig(html)).toMatchObject({
      "passkey-options-url": "/webauthn/authenticate/options",
      "passkey-login-url": "/login/webauthn",
    });
  });

  it("works as a plain form: POST to the primary processing URL", () => {
    const login = form(renderMfaLoginPage(model), "loginForm");
    expect(login.attrs).toMatchObject({ method: "post", action: "/admin/login" });
  });

  it("says the SDK is needed for a REST primary", () => {
    const html = renderMfaLoginPage({ ...model, mfaSdkRequired: true, processingUrl: "/api/mfa/login" });
    expect(pageConfig(html)["mfa-sdk-required"]).toBe("true");
    expect(html).toContain("<noscript>");
  });

  it("puts the username back and shows the error, escaped", () => {
    const html = renderMfaLoginPage({
      ...model,
      username: HOSTILE,
      error: HOSTILE,
      csrfToken: HOSTILE,
      selectFactorUrl: HOSTILE,
    });
    expect(pageConfig(html)["select-factor-url"]).toBe(HOSTILE);
    expectNoInjection(html);
    expect(tags(html, "input").find((i) => i.name === "username")?.value).toBe(HOSTILE);
    expect(decode(html)).toContain(HOSTILE);
  });

  it("leaves the CSRF meta tags and input out on a chain without CSRF", () => {
    const html = renderMfaLoginPage({ ...model, csrfToken: undefined });
    expect(html).not.toContain("_csrf");
  });
});
