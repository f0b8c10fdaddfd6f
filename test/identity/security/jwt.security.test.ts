import { createHmac } from "node:crypto";
import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSecurity, type IdentityTestServer, startIdentityServer } from "../identity-test-server.js";
import {
  compactJws,
  decodeJwt,
  getWithBearer,
  guardedDemoSecurity,
  JSON_HEADERS,
  restLogin,
  signWithForeignEs256Key,
} from "./security-test-support.js";

// Bearer tokens over HTTP. /api/me is served by the form chain (it accepts a session or a bearer token);
// /api/data by the REST chain, guarded by an `authenticated()` rule (the demo itself guards nothing).
/** The TokenService's default refresh race window: a spent token presented later is reuse. */
const REFRESH_RACE_WINDOW_MS = 5_000;
const ENDPOINTS = ["/api/me", "/api/data"] as const;

describe("JWT access and refresh tokens", () => {
  let server: IdentityTestServer;
  // Reuse of a spent refresh token is told from a lost race by time: tests step past the window.
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startIdentityServer({
      security: guardedDemoSecurity,
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  const post = (path: string, body: unknown, bearer?: string) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
  const refresh = async (refreshToken: string) => {
    const res = await post("/api/token/refresh", { refreshToken });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("accepts a genuine token on both chains", async () => {
    const { accessToken } = await restLogin(server.url);
    const me = await getWithBearer(server.url, "/api/me", accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: "user", authenticatedBy: "bearer", method: "rest" });
    const data = await getWithBearer(server.url, "/api/data", accessToken);
    expect(data).toMatchObject({ status: 200, body: { user: "user" } });
  });

  it("answers 401 without a token, with WWW-Authenticate: Bearer on the REST chain", async () => {
    const data = await fetch(`${server.url}/api/data`, { headers: { accept: "application/json" } });
    expect(data.status).toBe(401);
    expect(data.headers.get("www-authenticate")).toBe("Bearer");
    expect(await data.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
    const me = await fetch(`${server.url}/api/me`, { headers: { accept: "application/json" } });
    expect(me.status).toBe(401);
    expect(await me.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
  });

  it("refuses a tampered payload (preferred_username and authorities changed, signature kept)", async () => {
    const { accessToken } = await restLogin(server.url);
    const [h, , s] = accessToken.split(".");
    const { payload } = decodeJwt(accessToken);
    const forged = { ...payload, preferred_username: "admin", authorities: ["ROLE_USER", "ROLE_ADMIN"] };
    const token = `${h}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${s}`;
    for (const path of ENDPOINTS) {
      const res = await getWithBearer(server.url, path, token);
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe("INVALID_TOKEN");
    }
    const rest = await getWithBearer(server.url, "/api/data", token);
    expect(rest.wwwAuthenticate).toBe('Bearer error="invalid_token"');
  });

  it("refuses alg: none (with and without a signature) and a header-only swap to HS256", async () => {
    const { accessToken } = await restLogin(server.url);
    const { header, payload } = decodeJwt(accessToken);
    const signature = accessToken.split(".")[2]!;
    const hmac = (input: string) => createHmac("sha256", "secret").update(input).digest("base64url");
    const hsInput = compactJws({ ...header, alg: "HS256" }, payload).slice(0, -1);
    const tokens = [
      compactJws({ ...header, alg: "none" }, payload),
      compactJws({ ...header, alg: "none" }, payload, signature),
      compactJws({ alg: "none", typ: "JWT" }, payload),
      compactJws({ ...header, alg: "NONE" }, payload),
      `${hsInput}.${hmac(hsInput)}`,
    ];
    for (const token of tokens) {
      for (const path of ENDPOINTS) {
        const res = await getWithBearer(server.url, path, token);
        expect(res.status, `${path} ${token.slice(0, 40)}`).toBe(401);
        expect(res.body.code).toBe("INVALID_TOKEN");
      }
    }
  });

  it("refuses a token signed by another ES256 key, even with the server's kid", async () => {
    const { accessToken } = await restLogin(server.url);
    const { header, payload } = decodeJwt(accessToken);
    for (const token of [
      signWithForeignEs256Key(header, payload),
      signWithForeignEs256Key({ ...header, kid: "other" }, payload),
      signWithForeignEs256Key({ typ: header.typ }, payload),
    ]) {
      for (const path of ENDPOINTS) {
        const res = await getWithBearer(server.url, path, token);
        expect(res.status, path).toBe(401);
        expect(res.body.code).toBe("INVALID_TOKEN");
      }
    }
  });

  it("rotates refresh tokens: the new one works once, reuse of the old one revokes the family", async () => {
    const { refreshToken: r1 } = await restLogin(server.url);
    const first = await refresh(r1);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, tokenType: "Bearer" });
    const r2 = first.body.refreshToken as string;
    expect(r2).not.toBe(r1);
    expect((await getWithBearer(server.url, "/api/data", first.body.accessToken as string)).status).toBe(200);

    const second = await refresh(r2);
    expect(second.status).toBe(200);
    const r3 = second.body.refreshToken as string;
    // r2 is spent: presenting it again after the race window is reuse.
    clock.advance(REFRESH_RACE_WINDOW_MS);
    const reuse = await refresh(r2);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe("INVALID_TOKEN");
    // ... which revoked the whole family: the newest one dies too.
    const afterReuse = await refresh(r3);
    expect(afterReuse.status).toBe(401);
    expect(afterReuse.body.code).toBe("INVALID_TOKEN");
  });

  it("reusing the very first refresh token after a rotation kills the rotated one", async () => {
    const { refreshToken: r1 } = await restLogin(server.url);
    const r2 = (await refresh(r1)).body.refreshToken as string;
    clock.advance(REFRESH_RACE_WINDOW_MS);
    expect((await refresh(r1)).status).toBe(401);
    const dead = await refresh(r2);
    expect(dead.status).toBe(401);
    expect(dead.body.code).toBe("INVALID_TOKEN");
  });

  it("logout with the refresh token and the bearer: refresh and the access token are refused afterwards", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    const other = await restLogin(server.url);
    const res = await post("/api/logout", { refreshToken }, accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });

    const again = await refresh(refreshToken);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("INVALID_TOKEN");
    for (const path of ENDPOINTS) {
      const denied = await getWithBearer(server.url, path, accessToken);
      expect(denied.status, path).toBe(401);
      expect(denied.body.code).toBe("INVALID_TOKEN");
    }
    // Another sign-in of the same user is untouched.
    expect((await getWithBearer(server.url, "/api/data", other.accessToken)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it("POST /api/token/revoke revokes both tokens", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    const res = await post("/api/token/revoke", { refreshToken }, accessToken);
    expect(res.status).toBe(200);
    expect((await refresh(refreshToken)).status).toBe(401);
    expect((await getWithBearer(server.url, "/api/data", accessToken)).status).toBe(401);
  });

  it("refuses a refresh token used as a bearer token, and an access token used as a refresh token", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    for (const path of ENDPOINTS) {
      const res = await getWithBearer(server.url, path, refreshToken);
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe("INVALID_TOKEN");
    }
    const swapped = await refresh(accessToken);
    expect([400, 401]).toContain(swapped.status);
    expect(swapped.body.success).not.toBe(true);
    // Neither attempt spent anything.
    expect((await refresh(refreshToken)).status).toBe(200);
  });

  it("answers garbage Authorization headers with 401 or ignores them, never 500", async () => {
    const headers = [
      "Bearer",
      "Bearer ",
      "Bearer a b",
      "Bearer a.b.c",
      "Bearer ...",
      "Bearer e30.e30.",
      "Bearer e30.e30.e30",
      `Bearer ${"a".repeat(10 * 1024)}`,
      `Bearer ${"eyJ".repeat(3000)}.e30.e30`,
      "Basic xxx",
      "Basic dXNlcjpwYXNzd29yZA==",
      "Digest username=user",
      "Bearer\tabc",
      "Bearerabc",
      "",
    ];
    for (const authorization of headers) {
      for (const path of ENDPOINTS) {
        const res = await fetch(server.url + path, {
          headers: { authorization, accept: "application/json" },
        });
        const text = await res.text();
        const label = `${path} ${authorization.slice(0, 30)}`;
        expect(res.status, label).toBe(401);
        const body = JSON.parse(text) as { code: string; username?: string };
        expect(["INVALID_TOKEN", "AUTHENTICATION_REQUIRED"], label).toContain(body.code);
        expect(text).not.toMatch(/\n\s+at /);
      }
    }
  });
});

describe("bearer tokens with the demo's own configuration (no authorization rules)", () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => server.close());

  it("never falls back to anonymous for a bad token: 401 even where anonymous callers pass", async () => {
    const anonymous = await fetch(`${server.url}/api/data`, { headers: { accept: "application/json" } });
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ user: null });
    const { accessToken } = await restLogin(server.url);
    const { header, payload } = decodeJwt(accessToken);
    for (const token of [
      compactJws({ ...header, alg: "none" }, payload),
      signWithForeignEs256Key(header, payload),
    ]) {
      for (const path of ["/api/data", "/", "/private/data", "/api/me"]) {
        const res = await getWithBearer(server.url, path, token);
        expect(res.status, path).toBe(401);
        expect(res.body.code).toBe("INVALID_TOKEN");
      }
    }
  });

  it('sends WWW-Authenticate: Bearer error="invalid_token" when a session-chain route refuses a bearer token (RFC 6750 §3)', async () => {
    for (const path of ["/api/me", "/"]) {
      const res = await getWithBearer(server.url, path, "not-a-token");
      expect(res.status, path).toBe(401);
      expect(res.wwwAuthenticate, path).toBe('Bearer error="invalid_token"');
    }
  });
});
