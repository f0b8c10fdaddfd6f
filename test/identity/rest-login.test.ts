import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";

/** The token answer of an `.oauth2()` login. */
interface TokenBody {
  accessToken: string;
  refreshToken: string;
  [field: string]: unknown;
}

describe("REST login with .oauth2() (the demo's REST chain)", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => s.close());

  it("answers tokens and creates no session", async () => {
    const b = new Browser(s.url);
    const res = await b.postJson("/api/login", { username: "user", password: "password" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as TokenBody;
    expect(body).toMatchObject({ success: true, redirectUrl: "/", tokenType: "Bearer", expiresIn: 900 });
    expect(body.accessToken.split(".")).toHaveLength(3);
    expect(body.refreshToken).toMatch(/^[\w-]{43}$/);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("authenticates later requests by bearer token, on both chains", async () => {
    const b = new Browser(s.url);
    const login = await b.postJson("/api/login", { username: "admin", password: "admin" });
    const { accessToken } = (await login.json()) as TokenBody;
    const auth = { authorization: `Bearer ${accessToken}` };
    expect(await (await b.fetch("/api/data", { headers: auth })).json()).toEqual({ user: "admin" });
    const me = await (await b.fetch("/api/me", { headers: auth })).json();
    expect(me).toMatchObject({
      username: "admin",
      authorities: ["ROLE_USER", "ROLE_ADMIN"],
      authenticatedBy: "bearer",
      method: "rest",
    });
  });

  it("refuses a form body: REST authenticates a JSON payload", async () => {
    const res = await new Browser(s.url).postForm("/api/login", { username: "user", password: "password" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      success: false,
      failureType: "INVALID_REQUEST",
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("answers 401 with the same body for an unknown user and a wrong password", async () => {
    const b = new Browser(s.url);
    const unknown = await b.postJson("/api/login", { username: "ghost", password: "x" });
    const wrong = await b.postJson("/api/login", { username: "user", password: "x" });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual(await wrong.json());
  });

  it("refreshes with rotation and answers 401 for /api/me without a token", async () => {
    const b = new Browser(s.url);
    const first = (await (
      await b.postJson("/api/login", { username: "user", password: "password" })
    ).json()) as TokenBody;
    const next = await b.postJson("/api/token/refresh", { refreshToken: first.refreshToken });
    expect(next.status).toBe(200);
    const pair = (await next.json()) as TokenBody;
    expect(pair.refreshToken).not.toBe(first.refreshToken);
    const anon = await b.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
  });
});
