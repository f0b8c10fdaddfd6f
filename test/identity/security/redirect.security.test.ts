import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  type IdentityTestServer,
  PAGE_NAVIGATION,
  startIdentityServer,
} from "../identity-test-server.js";
import { cookieHeader, formLogin, guardedDemoSecurity, rawRequest } from "./security-test-support.js";

// Open redirects: a saved request (or the redirectUrl of a JSON login) never points off-site. The demo
// guards nothing, so /private/** gets an authenticated() rule here.
describe("open redirects through the saved request", () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ security: guardedDemoSecurity });
  });
  afterAll(() => server.close());

  const isLocal = (location: string) => /^\/(?![/\\])/.test(location) && !/[\r\n]/.test(location);

  it("sends a browser to /login and back to the page it asked for", async () => {
    const browser = new Browser(server.url);
    const first = await browser.navigate("/private/data");
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/login");
    const login = await formLogin(browser);
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/private/data");
    expect(await (await browser.fetch("/private/data")).json()).toEqual({ user: "user" });
  });

  it("answers the saved request as redirectUrl to a JSON login", async () => {
    const browser = new Browser(server.url);
    await browser.navigate("/private/data?page=2");
    const csrf = await browser.csrfFrom("/login");
    const res = await browser.postJson(
      "/login",
      { username: "user", password: "password" },
      { "X-CSRF-TOKEN": csrf },
    );
    expect(await res.json()).toEqual({ success: true, redirectUrl: "/private/data?page=2" });
  });

  for (const path of [
    "//evil.example",
    "///evil.example/",
    "/\\evil.example",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "/..//evil.example",
    "/private/..//evil.example",
    "/private/%2e%2e//evil.example",
    "/.//evil.example/private",
    "/private/data?next=//evil.example&x=%0d%0aSet-Cookie:%20a=b",
  ]) {
    it(`never redirects off-site after ${path}`, async () => {
      const browser = new Browser(server.url);
      await browser.fetch("/login");
      // A page navigation, so the saved request is what the login answer below is built from.
      const res = await rawRequest(server.url, "GET", path, {
        headers: { ...PAGE_NAVIGATION, cookie: cookieHeader(browser) },
      });
      expect(res.status).toBeLessThan(500);
      const location = res.headers.location;
      if (typeof location === "string") expect(isLocal(location), location).toBe(true);
      const login = await formLogin(browser);
      const target = login.headers.get("location") ?? "";
      expect(isLocal(target), target).toBe(true);
      expect(login.headers.getSetCookie().some((c) => c.startsWith("a="))).toBe(false);
    });
  }
});
