import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity-test-server.js";
import { expectCleanErrorResponse, formLogin, SESSION_COOKIE, whoAmI } from "./security-test-support.js";

// Session fixation, planted ids, logout invalidation and cookie attributes, over HTTP.
describe("session cookie security of the session chain", () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => server.close());

  /** A browser that only carries the given session id. */
  function browserWith(sessionId: string): Browser {
    const browser = new Browser(server.url);
    browser.cookies.set(SESSION_COOKIE, sessionId);
    return browser;
  }

  function sessionCookieLine(res: Response): string | undefined {
    return res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  }

  it("rotates the session id at login and the pre-login id authenticates nothing", async () => {
    const browser = new Browser(server.url);
    const csrf = await browser.csrfFrom("/login");
    const anonymousId = browser.cookies.get(SESSION_COOKIE);
    expect(anonymousId).toBeTruthy();

    const res = await browser.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    expect(res.status).toBe(302);
    const signedInId = browser.cookies.get(SESSION_COOKIE);
    expect(signedInId).toBeTruthy();
    expect(signedInId).not.toBe(anonymousId);
    expect(await whoAmI(browser)).toBe("user");

    // An attacker who planted (or read) the anonymous id gets nothing out of it.
    const attacker = browserWith(anonymousId!);
    expect(await whoAmI(attacker)).toBeUndefined();
    const page = await attacker.fetch("/", { headers: { accept: "application/json" } });
    expect(await page.json()).toEqual({ user: null });
    // Nor may the old id post with the old CSRF token.
    const post = await attacker.postJson("/things", { x: 1 }, { "X-CSRF-TOKEN": csrf });
    await expectCleanErrorResponse(post, 403, "CSRF_TOKEN_INVALID");
  });

  it("rotates the id of a session that was already signed in when another login happens on it", async () => {
    const browser = new Browser(server.url);
    await formLogin(browser, "user", "password");
    const first = browser.cookies.get(SESSION_COOKIE)!;
    await formLogin(browser, "admin", "admin");
    const second = browser.cookies.get(SESSION_COOKIE)!;
    expect(second).not.toBe(first);
    expect(await whoAmI(browser)).toBe("admin");
    expect(await whoAmI(browserWith(first))).toBeUndefined();
  });

  it("never adopts a planted unknown session id: the server clears it and mints its own", async () => {
    const planted = "attacker-chosen-session-id-0123456789abcdefghij";
    const victim = browserWith(planted);
    const page = await victim.fetch("/login");
    expect(page.status).toBe(200);
    const line = sessionCookieLine(page);
    expect(line).toBeDefined();
    const minted = victim.cookies.get(SESSION_COOKIE);
    expect(minted).toBeTruthy();
    expect(minted).not.toBe(planted);

    // The victim signs in; the planted id still authenticates nobody.
    const csrf = await victim.csrfFrom("/login");
    expect(
      (await victim.postForm("/login", { username: "user", password: "password", _csrf: csrf })).status,
    ).toBe(302);
    expect(victim.cookies.get(SESSION_COOKIE)).not.toBe(planted);
    expect(await whoAmI(victim)).toBe("user");
    expect(await whoAmI(browserWith(planted))).toBeUndefined();
  });

  it("clears an unknown session cookie on any session-chain request and does not 500 on odd ids", async () => {
    for (const id of ["x", "%", "a".repeat(5000), '"quoted"', "ü", "../../etc/passwd"]) {
      const res = await fetch(`${server.url}/api/me`, {
        headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(id)}`, accept: "application/json" },
      });
      await expectCleanErrorResponse(res, 401, "AUTHENTICATION_REQUIRED");
    }
  });

  it("logout invalidates the session: the old cookie is dead afterwards", async () => {
    const browser = new Browser(server.url);
    await formLogin(browser);
    const signedInId = browser.cookies.get(SESSION_COOKIE)!;
    expect(await whoAmI(browser)).toBe("user");

    const csrf = await browser.csrfFrom("/login");
    const res = await browser.postForm("/logout", { _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?logout");
    const cleared = sessionCookieLine(res);
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);

    // Replaying the pre-logout cookie: 401 on /api/me, anonymous on pages, refused on posts.
    const replay = browserWith(signedInId);
    const me = await replay.fetch("/api/me", { headers: { accept: "application/json" } });
    await expectCleanErrorResponse(me, 401, "AUTHENTICATION_REQUIRED");
    const page = await replay.fetch("/", { headers: { accept: "application/json" } });
    expect(await page.json()).toEqual({ user: null });
    const post = await replay.postJson("/things", {}, { "X-CSRF-TOKEN": csrf });
    await expectCleanErrorResponse(post, 403, "CSRF_TOKEN_INVALID");
  });

  it("logout of one browser leaves another browser of the same user signed in", async () => {
    const a = new Browser(server.url);
    const b = new Browser(server.url);
    await formLogin(a);
    await formLogin(b);
    const csrf = await a.csrfFrom("/login");
    expect((await a.postForm("/logout", { _csrf: csrf })).status).toBe(302);
    expect(await whoAmI(a)).toBeUndefined();
    expect(await whoAmI(b)).toBe("user");
  });

  it("sends the session cookie HttpOnly, SameSite=Lax, Path=/ (and not Secure over plain http)", async () => {
    const browser = new Browser(server.url);
    const page = await browser.fetch("/login");
    const anonymous = sessionCookieLine(page);
    const csrf = await browser.csrfFrom("/login");
    const login = await browser.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    const signedIn = sessionCookieLine(login);
    for (const line of [anonymous, signedIn]) {
      expect(line).toBeDefined();
      const attrs = line!
        .split(";")
        .slice(1)
        .map((a) => a.trim().toLowerCase());
      expect(attrs).toContain("httponly");
      expect(attrs).toContain("samesite=lax");
      expect(attrs).toContain("path=/");
      expect(attrs).not.toContain("secure");
      expect(attrs.some((a) => a.startsWith("domain="))).toBe(false);
      // 256 random bits, base64url: 43 characters.
      const value = line!.split(";")[0]!.split("=")[1]!;
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("sets no session cookie for the stateless REST chain", async () => {
    const res = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ username: "user", password: "password" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("creates no session for a refused (CSRF) post", async () => {
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: "username=user&password=password",
    });
    await expectCleanErrorResponse(res, 403, "CSRF_TOKEN_INVALID");
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
