import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity-test-server.js";
import {
  expectCleanErrorResponse,
  formLogin,
  JSON_HEADERS,
  restLogin,
  whoAmI,
} from "./security-test-support.js";

// HTTP-level CSRF tests against the demo's chains: the form chain (session, synchronizer token) and the
// REST chain (stateless JWT, exempt).
describe("CSRF protection of the session chain", () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => server.close());

  const credentials = { username: "user", password: "password" };

  async function browserOnLoginPage(): Promise<{ browser: Browser; csrf: string }> {
    const browser = new Browser(server.url);
    const csrf = await browser.csrfFrom("/login");
    return { browser, csrf };
  }

  it("refuses a JSON form login without _csrf with 403 CSRF_TOKEN_INVALID and authenticates nobody", async () => {
    const { browser } = await browserOnLoginPage();
    const before = new Map(browser.cookies);
    const res = await browser.postJson("/login", credentials);
    const body = await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(body).not.toHaveProperty("success", true);
    expect(browser.cookies).toEqual(before);
    expect(await whoAmI(browser)).toBeUndefined();
  });

  it("refuses an urlencoded form login without _csrf (no session is authenticated)", async () => {
    const { browser } = await browserOnLoginPage();
    const res = await browser.postForm("/login", credentials, { accept: "application/json" });
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(res.headers.get("location")).toBeNull();
    expect(await whoAmI(browser)).toBeUndefined();
  });

  it("refuses a form login without any session at all (no cookie, no token)", async () => {
    const browser = new Browser(server.url);
    const res = await browser.postForm(
      "/login",
      { ...credentials, _csrf: "x" },
      { accept: "application/json" },
    );
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(browser.cookies.size).toBe(0);
  });

  it("refuses a wrong token, an empty one and a prefix of the right one", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    for (const wrong of [`${csrf.slice(0, -2)}xx`, "", csrf.slice(0, 10), `${csrf}x`, csrf.toUpperCase()]) {
      if (wrong === csrf) continue;
      const res = await browser.postForm(
        "/login",
        { ...credentials, _csrf: wrong },
        { accept: "application/json" },
      );
      await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
      const viaHeader = await browser.postJson("/login", credentials, { "X-CSRF-TOKEN": wrong || "-" });
      await expectCleanErrorResponse(viaHeader, 403, "CSRF_TOKEN_INVALID");
    }
    expect(await whoAmI(browser)).toBeUndefined();
  });

  it("refuses a token that belongs to another browser's session", async () => {
    const attacker = await browserOnLoginPage();
    const victim = await browserOnLoginPage();
    expect(attacker.csrf).not.toBe(victim.csrf);
    const res = await victim.browser.postForm(
      "/login",
      { ...credentials, _csrf: attacker.csrf },
      { accept: "application/json" },
    );
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(await whoAmI(victim.browser)).toBeUndefined();
    expect(await whoAmI(attacker.browser)).toBeUndefined();
  });

  it("ignores a token in the query string", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    const res = await browser.fetch(`/login?_csrf=${encodeURIComponent(csrf)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(credentials).toString(),
    });
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(await whoAmI(browser)).toBeUndefined();
  });

  it("accepts the right token in the _csrf field: 302 to /", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    const res = await browser.postForm("/login", { ...credentials, _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(await whoAmI(browser)).toBe("user");
  });

  it("accepts the right token in the X-CSRF-TOKEN header: 302 to /", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    const res = await browser.postForm("/login", credentials, { "X-CSRF-TOKEN": csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(await whoAmI(browser)).toBe("user");
  });

  it("accepts the header token with a JSON body and answers JSON success", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    const res = await browser.postJson("/login", credentials, { "x-csrf-token": csrf });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, redirectUrl: "/" });
  });

  it("kills the pre-login token at login: it no longer passes afterwards", async () => {
    const { browser, csrf } = await browserOnLoginPage();
    expect((await browser.postForm("/login", { ...credentials, _csrf: csrf })).status).toBe(302);
    const res = await browser.postJson("/things", { a: 1 }, { "X-CSRF-TOKEN": csrf });
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    const fresh = await browser.csrfFrom("/login");
    expect(fresh).not.toBe(csrf);
    const ok = await browser.postJson("/things", { a: 1 }, { "X-CSRF-TOKEN": fresh });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ user: "user", got: { a: 1 } });
  });

  it("refuses POST /logout without a CSRF token: the user stays signed in", async () => {
    const browser = new Browser(server.url);
    expect((await formLogin(browser)).status).toBe(302);
    const plain = await browser.fetch("/logout", { method: "POST" });
    expect(plain.status).toBe(403);
    const json = await browser.postJson("/logout", {});
    await expectCleanErrorResponse(json, 403, "CSRF_TOKEN_INVALID");
    const wrong = await browser.postForm("/logout", { _csrf: "nope" }, { accept: "application/json" });
    await expectCleanErrorResponse(wrong, 403, "CSRF_TOKEN_INVALID");
    expect(await whoAmI(browser)).toBe("user");
    // With the token the logout goes through.
    const csrf = await browser.csrfFrom("/login");
    const out = await browser.postForm("/logout", { _csrf: csrf });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login?logout");
    expect(await whoAmI(browser)).toBeUndefined();
  });

  it("exempts a bearer-authenticated request on a session-chain route (POST /things)", async () => {
    const { accessToken } = await restLogin(server.url);
    const res = await fetch(`${server.url}/things`, {
      method: "POST",
      headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ n: 1 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: "user", got: { n: 1 } });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("does not exempt a request with an invalid bearer token: 401, never a CSRF bypass", async () => {
    const res = await fetch(`${server.url}/things`, {
      method: "POST",
      headers: { ...JSON_HEADERS, authorization: "Bearer not.a.token" },
      body: JSON.stringify({ n: 1 }),
    });
    await expectCleanErrorResponse(res, 401, "INVALID_TOKEN");
  });

  it("still protects a session-authenticated POST /things (cookie only, no token)", async () => {
    const browser = new Browser(server.url);
    await formLogin(browser);
    const res = await browser.postJson("/things", { n: 1 });
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
  });

  it("needs no CSRF token on the stateless REST chain", async () => {
    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(credentials),
    });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()).toEqual([]);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const res = await fetch(`${server.url}/api/things`, {
      method: "POST",
      headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ n: 2 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: "user", got: { n: 2 } });
    const anonymous = await fetch(`${server.url}/api/things`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ n: 3 }),
    });
    expect(anonymous.status).toBe(200);
  });
});
