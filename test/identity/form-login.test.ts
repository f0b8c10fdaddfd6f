import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";

describe("form login with a session (the demo's form chain)", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => s.close());

  it("generates a login page with the CSRF meta tags, hidden input and the contract's ids", async () => {
    const res = await new Browser(s.url).fetch("/login");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<meta name="_csrf" content="[\w-]{43}">/);
    expect(html).toContain('<meta name="_csrf_header" content="X-CSRF-TOKEN">');
    expect(html).toMatch(/<input type="hidden" name="_csrf" value="[\w-]{43}">/);
    expect(html).toContain('name="username"');
    expect(html).toContain('id="loginButton"');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("signs in, redirects to the default success URL, and the session knows the user", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(await (await b.fetch("/")).json()).toEqual({ user: "user" });
    const me = await (await b.fetch("/api/me")).json();
    expect(me).toMatchObject({
      username: "user",
      authorities: ["ROLE_USER"],
      authenticatedBy: "session",
      method: "form",
      factors: ["pwd"],
    });
  });

  it("redirects a failed browser login to /login?error and shows the message", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "user", password: "wrong", _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?error");
    expect(await (await b.fetch("/login?error")).text()).toContain("Invalid username or password.");
  });

  it("answers JSON clients with {success, redirectUrl} and {success:false, error, failureType}", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/login");
    const bad = await b.postJson("/login", { username: "nobody", password: "x" }, { "x-csrf-token": csrf });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({
      success: false,
      error: "Bad credentials",
      failureType: "BAD_CREDENTIALS",
      code: "BAD_CREDENTIALS",
    });
    const ok = await b.postJson("/login", { username: "admin", password: "admin" }, { "x-csrf-token": csrf });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, redirectUrl: "/" });
  });

  it("sends an anonymous browser to the login page and back to where it wanted to go", async () => {
    const b = new Browser(s.url);
    await b.fetch("/login");
    const me = await b.navigate("/api/me");
    expect(me.status).toBe(302);
    expect(me.headers.get("location")).toBe("/login");
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    expect(res.headers.get("location")).toBe("/api/me");
  });

  it("logs out: invalidates the session and redirects to /login?logout", async () => {
    const b = new Browser(s.url);
    let csrf = await b.csrfFrom("/login");
    await b.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    csrf = await b.csrfFrom("/login");
    const out = await b.postForm("/logout", { _csrf: csrf });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login?logout");
    expect((await b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
  });
});
