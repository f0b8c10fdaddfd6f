import { describe, expect, it } from "vitest";
import { type MfaUrls, mfaUrlList, mfaUrls } from "./mfa-urls.js";

type FlowUrlKey = Exclude<keyof MfaUrls, "urlPrefix" | "primary" | "generateLoginPage">;

const TABLE: [FlowUrlKey, string, string][] = [
  // The six URLs a urlPrefix moves in every MFA flow (the login page is our generated `/login` page
  // and its processing URL).
  ["formLoginPage", "/login", "/admin/login"],
  ["formLoginProcessing", "/login", "/admin/login"],
  ["selectFactor", "/mfa/select-factor", "/admin/mfa/select-factor"],
  ["ottLoginProcessing", "/login/mfa-ott", "/admin/login/mfa-ott"],
  ["passkeyLoginProcessing", "/login/mfa-webauthn", "/admin/login/mfa-webauthn"],
  ["cancel", "/mfa/cancel", "/admin/mfa/cancel"],
  ["config", "/api/mfa/config", "/admin/api/mfa/config"],
  // Extension: every other URL of the flow, so `<prefix>/**` covers the whole flow.
  ["restLoginProcessing", "/api/mfa/login", "/admin/api/mfa/login"],
  ["primaryLoginProcessing", "/login", "/admin/login"],
  ["loginFailure", "/login?error", "/admin/login?error"],
  ["selectFactorPage", "/mfa/select-factor", "/admin/mfa/select-factor"],
  ["ottGenerateCode", "/mfa/ott/generate-code", "/admin/mfa/ott/generate-code"],
  ["ottRequestCodePage", "/mfa/ott/request-code-ui", "/admin/mfa/ott/request-code-ui"],
  ["ottChallengePage", "/mfa/challenge/ott", "/admin/mfa/challenge/ott"],
  ["passkeyChallengePage", "/mfa/challenge/passkey", "/admin/mfa/challenge/passkey"],
  [
    "passkeyAssertionOptions",
    "/mfa/webauthn/authenticate/options",
    "/admin/mfa/webauthn/authenticate/options",
  ],
  ["status", "/api/mfa/status", "/admin/api/mfa/status"],
  ["logout", "/logout", "/admin/logout"],
  ["failurePage", "/mfa/failure", "/admin/mfa/failure"],
  ["configurePage", "/mfa/configure", "/admin/mfa/configure"],
  // Not the flow's: never prefixed.
  ["successUrl", "/", "/"],
  ["passkeyRegistrationProcessing", "/webauthn/register", "/webauthn/register"],
  ["passkeyManagementPage", "/passkeys", "/passkeys"],
];

describe("mfaUrls", () => {
  const plain = mfaUrls({ primary: "form" });
  const prefixed = mfaUrls({ primary: "form", urlPrefix: "/admin" });

  it.each(TABLE)("%s is %s, and %s with urlPrefix /admin", (key, without, withPrefix) => {
    expect(plain[key]).toBe(without);
    expect(prefixed[key]).toBe(withPrefix);
  });

  it("covers every URL field in the table", () => {
    const keys = Object.keys(plain).filter((k) => !["urlPrefix", "primary", "generateLoginPage"].includes(k));
    expect(keys.sort()).toEqual(TABLE.map(([k]) => k).sort());
  });

  it("normalizes the prefix and records it", () => {
    expect(plain.urlPrefix).toBeUndefined();
    expect(prefixed.urlPrefix).toBe("/admin");
    expect(mfaUrls({ primary: "form", urlPrefix: "/admin//" }).cancel).toBe("/admin/mfa/cancel");
    expect(mfaUrls({ primary: "form", urlPrefix: "/" }).urlPrefix).toBeUndefined();
    for (const bad of ["admin", "//evil.example", "/a b"]) {
      expect(() => mfaUrls({ primary: "form", urlPrefix: bad }), bad).toThrow(
        expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
      );
    }
  });

  it("puts every flow URL under <prefix>/** when prefixed", () => {
    for (const path of mfaUrlList(prefixed)) expect(path.startsWith("/admin/"), path).toBe(true);
  });

  it("uses the REST processing URL and REST logout for a REST primary", () => {
    const rest = mfaUrls({ primary: "rest", urlPrefix: "/api2" });
    expect(rest.primaryLoginProcessing).toBe("/api2/api/mfa/login");
    expect(rest.logout).toBe("/api2/api/logout");
    expect(mfaUrls({ primary: "rest", primaryProcessingUrl: "/auth/json" })).toMatchObject({
      restLoginProcessing: "/auth/json",
      primaryLoginProcessing: "/auth/json",
      formLoginProcessing: "/login",
    });
  });

  it("takes an explicit form processing URL as given", () => {
    expect(mfaUrls({ primary: "form", urlPrefix: "/admin", primaryProcessingUrl: "/signin" })).toMatchObject({
      formLoginProcessing: "/signin",
      primaryLoginProcessing: "/signin",
    });
  });

  it.each([
    ["selectFactorPage", "selectFactorPage", "/choose"],
    ["ottRequestPage", "ottRequestCodePage", "/code/request"],
    ["ottVerifyPage", "ottChallengePage", "/code/verify"],
    ["passkeyChallengePage", "passkeyChallengePage", "/pk"],
    ["configurePage", "configurePage", "/settings/mfa"],
    ["failurePage", "failurePage", "/oops"],
  ] as const)("mfaPage %s overrides %s as given, even with a prefix", (pageKey, urlKey, url) => {
    const urls = mfaUrls({ primary: "form", urlPrefix: "/admin", pages: { [pageKey]: url } });
    expect(urls[urlKey]).toBe(url);
  });

  it("keeps the select-factor API when only the page moves", () => {
    const urls = mfaUrls({ primary: "form", pages: { selectFactorPage: "/choose" } });
    expect(urls.selectFactor).toBe("/mfa/select-factor");
    expect(urls.selectFactorPage).toBe("/choose");
  });

  it("refuses unknown or non-local page overrides", () => {
    expect(() => mfaUrls({ primary: "form", pages: { nope: "/x" } })).toThrow(
      expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
    );
    expect(() => mfaUrls({ primary: "form", pages: { failurePage: "https://evil" } })).toThrow(
      expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
    );
  });

  it("moves the generated form and its processing URL with defaultLoginUrl", () => {
    const urls = mfaUrls({ primary: "form", urlPrefix: "/admin", defaultLoginUrl: "/secure-login" });
    expect(urls).toMatchObject({
      formLoginPage: "/secure-login",
      formLoginProcessing: "/secure-login",
      primaryLoginProcessing: "/secure-login",
      loginFailure: "/secure-login?error",
      generateLoginPage: true,
    });
  });

  it("uses a user loginPage without generating one; processing stays put", () => {
    const urls = mfaUrls({ primary: "form", urlPrefix: "/admin", loginPage: "/my-login" });
    expect(urls).toMatchObject({
      formLoginPage: "/my-login",
      generateLoginPage: false,
      formLoginProcessing: "/admin/login",
      loginFailure: "/my-login?error",
    });
  });

  it("uses defaultSuccessUrl as given", () => {
    expect(mfaUrls({ primary: "form", urlPrefix: "/admin", defaultSuccessUrl: "/home" }).successUrl).toBe(
      "/home",
    );
  });
});

describe("mfaUrlList", () => {
  it("lists each served path once, without query strings or other chains' URLs", () => {
    expect(mfaUrlList(mfaUrls({ primary: "form" }))).toEqual([
      "/login",
      "/mfa/select-factor",
      "/mfa/ott/generate-code",
      "/mfa/ott/request-code-ui",
      "/mfa/challenge/ott",
      "/login/mfa-ott",
      "/mfa/challenge/passkey",
      "/login/mfa-webauthn",
      "/mfa/webauthn/authenticate/options",
      "/mfa/cancel",
      "/api/mfa/config",
      "/api/mfa/status",
      "/logout",
      "/mfa/failure",
      "/mfa/configure",
    ]);
  });

  it("serves the REST processing URL, not the form one, for a REST primary", () => {
    const list = mfaUrlList(mfaUrls({ primary: "rest" }));
    expect(list).toContain("/api/mfa/login");
    expect(list).toContain("/login");
    expect(list).toContain("/api/logout");
    expect(list).not.toContain("/logout");
  });

  it("includes explicit URLs that fall outside the prefix", () => {
    const list = mfaUrlList(
      mfaUrls({
        primary: "form",
        urlPrefix: "/admin",
        loginPage: "/my-login",
        pages: { failurePage: "/oops" },
      }),
    );
    expect(list).toEqual(expect.arrayContaining(["/my-login", "/admin/login", "/oops"]));
    expect(list).not.toContain("/");
    expect(list).not.toContain("/passkeys");
  });
});
