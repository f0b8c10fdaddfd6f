import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { createPasskeyRoutes } from "./create-passkey-routes.js";
import { jsonOf, passkeyHttpKit } from "./passkey-http-kit.test-support.js";
import { SoftwareAuthenticator } from "./software-authenticator.test-support.js";
import { ORIGIN } from "./passkey-kit.test-support.js";

type HttpKit = Awaited<ReturnType<typeof passkeyHttpKit>>;
type Browser = ReturnType<HttpKit["browser"]>;

/** Registers a passkey over HTTP for the browser's signed-in user. */
async function registerOverHttp(browser: Browser, device: SoftwareAuthenticator, label?: string) {
  const options = await browser.request("POST", "/webauthn/register/options");
  expect(options.status).toBe(200);
  const response = device.createCredential(options.body as unknown as PublicKeyCredentialCreationOptionsJSON);
  return browser.request("POST", "/webauthn/register", { json: { response, label } });
}

/** Signs in over HTTP with the device, optionally naming the user. */
async function signInOverHttp(browser: Browser, device: SoftwareAuthenticator, username?: string) {
  const options = await browser.request("POST", "/webauthn/authenticate/options", {
    json: username === undefined ? {} : { username },
  });
  expect(options.status).toBe(200);
  const assertion = device.getAssertion(options.body as unknown as PublicKeyCredentialRequestOptionsJSON);
  return browser.request("POST", "/login/webauthn", { json: assertion });
}

describe("createPasskeyRoutes", () => {
  it("returns the endpoints in order, the page last unless it is off", async () => {
    const kit = await passkeyHttpKit();
    const base = {
      service: kit.service,
      repository: kit.repository,
      successHandler: { onSuccess: async () => {} },
      failureHandler: { onFailure: async () => {} },
      context: {
        chainId: "p",
        loginPage: "/login",
        defaultSuccessUrl: undefined,
        alwaysUseDefaultSuccessUrl: false,
        failureUrl: undefined,
      },
    };
    const endpoints = [
      "POST /webauthn/authenticate/options identity.passkey.assertion-options",
      "POST /login/webauthn identity.passkey.login",
      "POST /webauthn/register/options identity.passkey.registration-options",
      "POST /webauthn/register identity.passkey.register",
      "GET /webauthn/credentials identity.passkey.credentials",
      "DELETE /webauthn/register/** identity.passkey.delete",
    ];
    const listed = (routes: ReturnType<typeof createPasskeyRoutes>) =>
      routes.map((r) => `${r.method} ${r.path} ${r.name}`);
    expect(listed(createPasskeyRoutes(base))).toEqual([
      ...endpoints,
      "GET /passkeys identity.passkey.page",
      "HEAD /passkeys identity.passkey.page",
    ]);
    expect(listed(createPasskeyRoutes({ ...base, showPage: false }))).toEqual(endpoints);
  });
});

describe("passkey endpoints over HTTP", () => {
  it("assertion options: 200 JSON, no-store, challenge cookie HttpOnly SameSite=Strict Path=/ Max-Age=ttl", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.loadPage();
    const response = await browser.request("POST", "/webauthn/authenticate/options");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(jsonOf(response)).toMatchObject({
      rpId: "localhost",
      userVerification: "required",
      allowCredentials: [],
    });
    expect(response.cookies).toContainEqual({
      name: "PLATFORM_WEBAUTHN",
      value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      path: "/",
      httpOnly: true,
      secure: false,
      sameSite: "Strict",
      maxAge: 300,
    });
  });

  it("sets the challenge cookie Secure on https", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.loadPage();
    const response = await browser.request("POST", "/webauthn/authenticate/options", { secure: true });
    expect(response.cookies.find((c) => c.name === "PLATFORM_WEBAUTHN")?.secure).toBe(true);
  });

  it("whole flow: register while signed in, sign in with the passkey elsewhere, list, delete", async () => {
    const kit = await passkeyHttpKit();
    const laptop = kit.browser();
    await laptop.signInAs(kit.alice);
    const registered = await registerOverHttp(laptop, kit.authenticator, "Laptop");
    expect(registered.status).toBe(201);
    const created = jsonOf(registered);
    expect(created).toEqual({
      id: expect.any(String),
      label: "Laptop",
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    expect(laptop.cookies.has("PLATFORM_WEBAUTHN")).toBe(false);

    const phone = kit.browser();
    await phone.loadPage();
    kit.clock.advance(60_000);
    const signedIn = await signInOverHttp(phone, kit.authenticator, "alice");
    expect(signedIn.status).toBe(200);
    expect(jsonOf(signedIn)).toEqual({ success: true, redirectUrl: "/" });
    expect(phone.cookies.has("PLATFORM_SESSION")).toBe(true);

    await phone.loadPage();
    const list = await phone.request("GET", "/webauthn/credentials");
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    expect(jsonOf(list)).toEqual([
      {
        id: created.id,
        label: "Laptop",
        createdAt: "2026-01-01T00:00:00.000Z",
        lastUsedAt: "2026-01-01T00:01:00.000Z",
        backedUp: false,
        deviceType: "singleDevice",
        transports: ["internal", "hybrid"],
      },
    ]);

    const deleted = await phone.request("DELETE", `/webauthn/register/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(jsonOf(await phone.request("GET", "/webauthn/credentials"))).toEqual([]);
    const again = await phone.request("DELETE", `/webauthn/register/${created.id}`);
    expect(again.status).toBe(404);
    expect(jsonOf(again)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("signs in usernameless (discoverable credential) and saves the context in a new session", async () => {
    const kit = await passkeyHttpKit();
    const laptop = kit.browser();
    await laptop.signInAs(kit.bob);
    await registerOverHttp(laptop, kit.authenticator);
    const anonymous = kit.browser();
    await anonymous.loadPage();
    const before = anonymous.cookies.get("PLATFORM_SESSION");
    const response = await signInOverHttp(anonymous, kit.authenticator);
    expect(jsonOf(response)).toEqual({ success: true, redirectUrl: "/" });
    expect(anonymous.cookies.get("PLATFORM_SESSION")).not.toBe(before);
    const page = await anonymous.loadPage();
    expect(page).toContain('Signed in as <strong id="passkeyCurrentUser">bob</strong>');
  });

  it("accepts a bare RegistrationResponseJSON as the register body", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.signInAs(kit.alice);
    const options = await browser.request("POST", "/webauthn/register/options");
    const response = kit.authenticator.createCredential(
      options.body as unknown as PublicKeyCredentialCreationOptionsJSON,
    );
    const registered = await browser.request("POST", "/webauthn/register", {
      json: { ...response, label: "Key" },
    });
    expect(registered.status).toBe(201);
    expect(jsonOf(registered)).toMatchObject({ label: "Key" });
  });

  it("answers a failed sign-in with the failure JSON and the code's status", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.loadPage();
    const response = await browser.request("POST", "/login/webauthn", { json: {} });
    expect(response.status).toBe(400);
    expect(jsonOf(response)).toMatchObject({
      success: false,
      failureType: "INVALID_REQUEST",
      code: "VALIDATION_FAILED",
    });
  });

  it("serves configured URLs instead of the defaults", async () => {
    const kit = await passkeyHttpKit({
      assertionOptionsEndpoint: "/pk/options",
      loginProcessingUrl: "/pk/login",
      credentialsUrl: "/pk/mine",
      pageUrl: "/pk",
      scriptUrl: "/pk/app.js",
    });
    const browser = kit.browser();
    const html = await browser.loadPage("/pk");
    expect(html).toContain('src="/pk/app.js"');
    expect(html).toContain('data-assertion-options-url="/pk/options"');
    expect(html).toContain('data-login-url="/pk/login"');
    expect(html).toContain('data-credentials-url="/pk/mine"');
    expect((await browser.request("POST", "/pk/options")).status).toBe(200);
    expect((await browser.request("POST", "/webauthn/authenticate/options")).status).toBe(404);
  });
});

describe("passkey page", () => {
  it("renders the page with CSRF meta tags, the external script only, and the stable ids", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    const response = await browser.request("GET", "/passkeys", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = String(response.body);
    expect(html).toMatch(/<meta name="_csrf" content="[A-Za-z0-9_-]+">/);
    expect(html).toContain('<meta name="_csrf_header" content="X-CSRF-TOKEN">');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script src="/js/platform-passkeys-page.js" defer></script>');
    expect(html).not.toMatch(/\son[a-z]+=/i);
    for (const id of [
      "passkeyUsername",
      "passkeySignInButton",
      "passkeyRegisterButton",
      "passkeyLabel",
      "passkeyList",
      "passkeyStatus",
    ]) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('autocomplete="username webauthn"');
    expect(html).toContain('data-authenticated="false"');
    expect(html).toContain("Not signed in.");
  });

  it("escapes the signed-in username", async () => {
    const kit = await passkeyHttpKit();
    const user = await kit.users.create({ username: '<img/src=x/onerror="alert(1)">' });
    const browser = kit.browser();
    await browser.signInAs(user);
    const html = await browser.loadPage();
    expect(html).toContain("&#60;img/src=x/onerror=&#34;alert(1)&#34;&#62;");
    expect(html).not.toContain("<img");
    expect(html).toContain('data-authenticated="true"');
  });
});

describe("passkey registration over HTTP with a second device", () => {
  it("excludes the first passkey and registers a second", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.signInAs(kit.alice);
    await registerOverHttp(browser, kit.authenticator, "one");
    const options = await browser.request("POST", "/webauthn/register/options");
    expect((jsonOf(options) as unknown as { excludeCredentials: unknown[] }).excludeCredentials).toHaveLength(
      1,
    );
    const second = await registerOverHttp(browser, new SoftwareAuthenticator(ORIGIN), "two");
    expect(second.status).toBe(201);
    expect((jsonOf(await browser.request("GET", "/webauthn/credentials")) as unknown[]).length).toBe(2);
  });
});
