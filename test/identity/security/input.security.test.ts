import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity-test-server.js";
import {
  cookieHeader,
  expectCleanError,
  formLogin,
  getWithBearer,
  rawRequest,
  restLogin,
  whoAmI,
} from "./security-test-support.js";

// Malformed, missing, oversized and hostile input on every identity endpoint: a clear 4xx with a stable
// code, never a 500 or a stack trace, and nothing changed.
type Case = "malformed" | "textPlain" | "multipart" | "missing" | "nonString" | "oversized" | "longValue";
const JSON_TYPE = "application/json";
const BODIES: Record<Case, { type: string; body: string }> = {
  malformed: { type: JSON_TYPE, body: '{"username":"user","password":' },
  textPlain: { type: "text/plain", body: "username=user&password=password" },
  multipart: {
    type: "multipart/form-data; boundary=xx",
    body: '--xx\r\nContent-Disposition: form-data; name="username"\r\n\r\nuser\r\n--xx--\r\n',
  },
  missing: { type: JSON_TYPE, body: "{}" },
  nonString: { type: JSON_TYPE, body: '{"username":{"$ne":null},"password":[1],"refreshToken":{"$gt":""}}' },
  oversized: { type: JSON_TYPE, body: JSON.stringify({ username: "user", password: "x".repeat(1_100_000) }) },
  longValue: {
    type: JSON_TYPE,
    body: JSON.stringify({
      username: "u".repeat(10_240),
      password: "password",
      refreshToken: "r".repeat(10_240),
    }),
  },
};

// Allowed status (and code) per endpoint and case. GET endpoints ignore any body.
type Expectation = [number[], string?];
const LOGIN: Record<Case, Expectation> = {
  malformed: [[400], "MALFORMED_JSON"],
  textPlain: [[415], "UNSUPPORTED_MEDIA_TYPE"],
  multipart: [[415], "UNSUPPORTED_MEDIA_TYPE"],
  missing: [[400], "VALIDATION_FAILED"],
  nonString: [[400], "VALIDATION_FAILED"],
  oversized: [[413], "PAYLOAD_TOO_LARGE"],
  longValue: [[400, 401]],
};
// Revoke and logout run with a bearer token: without a refreshToken they still revoke the access token.
const REFRESH: Record<Case, Expectation> = { ...LOGIN, longValue: [[400, 401]] };
const REVOKE: Record<Case, Expectation> = { ...LOGIN, missing: [[200, 400]], longValue: [[200, 400]] };
const LOGOUT: Record<Case, Expectation> = { ...LOGIN, missing: [[200]], longValue: [[200, 400]] };
const all = (e: Expectation): Record<Case, Expectation> =>
  Object.fromEntries(Object.keys(BODIES).map((k) => [k, e])) as Record<Case, Expectation>;

const ENDPOINTS: {
  method: string;
  path: string;
  auth: "csrf" | "bearer" | "none";
  expect: Record<Case, Expectation>;
}[] = [
  { method: "POST", path: "/login", auth: "csrf", expect: LOGIN },
  { method: "POST", path: "/api/login", auth: "none", expect: LOGIN },
  { method: "POST", path: "/api/token/refresh", auth: "none", expect: REFRESH },
  { method: "POST", path: "/api/token/revoke", auth: "bearer", expect: REVOKE },
  { method: "POST", path: "/api/logout", auth: "bearer", expect: LOGOUT },
  { method: "POST", path: "/logout", auth: "none", expect: all([[403], "CSRF_TOKEN_INVALID"]) },
  { method: "GET", path: "/api/me", auth: "none", expect: all([[401], "AUTHENTICATION_REQUIRED"]) },
  { method: "GET", path: "/login", auth: "none", expect: all([[200]]) },
];

describe("hostile input on every identity endpoint", () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ security: demoSecurity });
  });
  afterAll(() => server.close());

  for (const endpoint of ENDPOINTS) {
    for (const [name, { type, body }] of Object.entries(BODIES) as [Case, { type: string; body: string }][]) {
      it(`${endpoint.method} ${endpoint.path}: ${name} body`, async () => {
        const [allowed, code] = endpoint.expect[name];
        const headers: Record<string, string> = { "content-type": type, accept: "application/json" };
        // A signed-in browser for /logout (it must stay signed in), a fresh session with a token for /login.
        const browser = new Browser(server.url);
        if (endpoint.path === "/logout") await formLogin(browser);
        if (endpoint.auth === "csrf") headers["x-csrf-token"] = await browser.csrfFrom("/login");
        if (browser.cookies.size > 0) headers.cookie = cookieHeader(browser);
        const tokens = endpoint.auth === "bearer" ? await restLogin(server.url) : undefined;
        if (tokens) headers.authorization = `Bearer ${tokens.accessToken}`;

        const res = await rawRequest(server.url, endpoint.method, endpoint.path, { headers, body });
        if (allowed[0] === 200 && endpoint.method === "GET") {
          expect(res.status).toBe(200);
          expect(res.text).toContain("<form");
        } else if (allowed.includes(200)) {
          expect(allowed, `${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
        } else {
          expectCleanError(res.status, res.text, allowed, code);
          expect(res.text).not.toContain("accessToken");
          // Nothing changed: no one signed in, the bearer token still works, /logout kept the session.
          expect(res.headers["set-cookie"] ?? []).toEqual([]);
          if (tokens)
            expect((await getWithBearer(server.url, "/api/me", tokens.accessToken)).status).toBe(200);
          if (endpoint.path === "/logout") expect(await whoAmI(browser)).toBe("user");
          else expect(await whoAmI(browser)).toBeUndefined();
        }
      });
    }
  }

  it("POST /api/token/revoke without any token (no refreshToken, no bearer) is refused: 400 VALIDATION_FAILED", async () => {
    for (const body of ["{}", '{"refreshToken":""}', '{"refreshToken":42}']) {
      const res = await rawRequest(server.url, "POST", "/api/token/revoke", {
        headers: { "content-type": JSON_TYPE, accept: JSON_TYPE },
        body,
      });
      expectCleanError(res.status, res.text, 400, "VALIDATION_FAILED");
    }
  });

  it("never lets a JSON body pollute prototypes, nest without bound, or be anything but an object", async () => {
    const polluted =
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"username":"user","password":"x"}';
    const deep = `${'{"a":'.repeat(40)}1${"}".repeat(40)}`;
    for (const [body, allowed] of [
      [polluted, [401]],
      [deep, [400]],
      ["[1,2]", [400]],
      ["null", [400]],
      ['"user"', [400]],
      ["", [400]],
    ] as const) {
      const res = await rawRequest(server.url, "POST", "/api/login", {
        headers: { "content-type": JSON_TYPE, accept: JSON_TYPE },
        body,
      });
      expectCleanError(res.status, res.text, [...allowed]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const bad = await rawRequest(server.url, "POST", "/api/login", {
      headers: { "content-type": JSON_TYPE, accept: JSON_TYPE },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expectCleanError(bad.status, bad.text, 400, "MALFORMED_BODY");
  });

  it("refuses an urlencoded body on the JSON-only REST login and a 10 KB username on the form login", async () => {
    const form = await rawRequest(server.url, "POST", "/api/login", {
      headers: { "content-type": "application/x-www-form-urlencoded", accept: JSON_TYPE },
      body: "username=user&password=password",
    });
    expectCleanError(form.status, form.text, 415, "UNSUPPORTED_MEDIA_TYPE");
    const browser = new Browser(server.url);
    const csrf = await browser.csrfFrom("/login");
    const res = await browser.postForm("/login", {
      username: "u".repeat(10_240),
      password: "p",
      _csrf: csrf,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?error");
    expect(await whoAmI(browser)).toBeUndefined();
  });

  const TRICKS = [
    "//login",
    "//api/login",
    "/login/../api/login",
    "/api/%2e%2e/login",
    "/api/./login",
    "/%2e/api/login",
    "/api/login;x=1",
    "/api/login%2f",
    "/api%2flogin",
    "/api\\login",
    "/api/login%00",
    // `/api/login/` is `/api/login` ("One canonical path", docs/decisions/http.md)
    "/api/login//",
  ];
  for (const path of TRICKS) {
    it(`path trick ${path}: 400 REQUEST_REJECTED or 404, never authenticated`, async () => {
      const browser = new Browser(server.url);
      const csrf = await browser.csrfFrom("/login");
      const res = await rawRequest(server.url, "POST", path, {
        headers: {
          "content-type": JSON_TYPE,
          accept: JSON_TYPE,
          cookie: cookieHeader(browser),
          "x-csrf-token": csrf,
        },
        body: JSON.stringify({ username: "user", password: "password" }),
      });
      expectCleanError(res.status, res.text, [400, 404]);
      expect(["REQUEST_REJECTED", "NOT_FOUND"]).toContain((JSON.parse(res.text) as { code: string }).code);
      expect(res.text).not.toContain("accessToken");
      expect(await whoAmI(browser)).toBeUndefined();
    });
  }

  for (const method of ["HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "GET"]) {
    it(`${method} /api/login answers 404/405 JSON`, async () => {
      const res = await rawRequest(server.url, method, "/api/login", {
        headers: { accept: JSON_TYPE, "content-type": JSON_TYPE },
        ...(method === "HEAD" || method === "GET" || method === "OPTIONS"
          ? {}
          : { body: '{"username":"user"}' }),
      });
      expect([404, 405]).toContain(res.status);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      if (method !== "HEAD") expectCleanError(res.status, res.text, [404, 405]);
    });
  }

  it("GET /login reflects nothing from the query and GET /api/me survives hostile cookies", async () => {
    const res = await fetch(
      `${server.url}/login?error=%3Cscript%3Ealert(1)%3C/script%3E&logout=%22%3E%3Cimg`,
    );
    const html = await res.text();
    expect(res.status).toBe(200);
    // The MFA page contract requires `<script src=...>` tags; nothing from the query may be reflected.
    expect(html).not.toMatch(/<script>|<img|alert\(1\)/);
    expect(res.headers.get("content-security-policy")).toBeTruthy();
    for (const cookie of [
      `PLATFORM_SESSION=${"a".repeat(8000)}`,
      "PLATFORM_SESSION=%E0%A4%A",
      "=;;;=x; PLATFORM_SESSION",
    ]) {
      const me = await fetch(`${server.url}/api/me`, { headers: { cookie, accept: JSON_TYPE } });
      expectCleanError(me.status, await me.text(), 401, "AUTHENTICATION_REQUIRED");
    }
  });
});
