import { generateKeyPairSync, sign } from "node:crypto";
import { request } from "node:http";
import {
  orMatcher,
  antMatcher,
  notMatcher,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { expect } from "vitest";
import { Browser } from "../identity-test-server.js";

/** The session cookie's default name. */
export const SESSION_COOKIE = "PLATFORM_SESSION";

/** JSON request headers. */
export const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" } as const;

/**
 * The demo's chains plus two static rules, because the demo itself guards nothing: `/private/**`
 * needs a signed-in user on the form chain, `/api/data` a bearer token on the REST chain.
 */
export function guardedDemoSecurity(registry: SecurityRegistry): SecurityConfiguration {
  return registry
    .form((form) =>
      form
        .defaultSuccessUrl("/")
        .rawHttp((http) =>
          http
            .securityMatcher(orMatcher(notMatcher(antMatcher("/api/**")), antMatcher("/api/me")))
            .authorizeHttpRequests((a) =>
              a.requestMatchers("/private/**").authenticated().anyRequest().permitAll(),
            ),
        ),
    )
    .session()
    .rest((rest) =>
      rest.rawHttp((http) =>
        http
          .securityMatcher("/api/**")
          .authorizeHttpRequests((a) =>
            a.requestMatchers("/api/data").authenticated().anyRequest().permitAll(),
          ),
      ),
    )
    .oauth2()
    .build();
}

/** The answer of a raw request. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends a request with node:http and the request-target exactly as given (fetch would normalise
 * `..`, `%2e%2e` and backslashes before they reach the server). Errors after the answer arrived
 * (the server closing a connection on a 413 while the body is still going out) are ignored.
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** The cookie header a Browser would send. */
export function cookieHeader(browser: Browser): string {
  return [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * Asserts a clean error answer: the given status (or any 4xx), a JSON body with a stable `code`, and
 * nothing that looks like a stack trace or an internal path.
 */
export function expectCleanError(
  status: number,
  text: string,
  expected?: number | number[],
  code?: string,
): void {
  const allowed = expected === undefined ? undefined : Array.isArray(expected) ? expected : [expected];
  if (allowed) expect(allowed, `status ${status}, body ${text.slice(0, 300)}`).toContain(status);
  else expect(status, text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(status, text.slice(0, 300)).toBeLessThan(500);
  if (text.length > 0) {
    const body = JSON.parse(text) as { code?: unknown };
    expect(typeof body.code, text.slice(0, 300)).toBe("string");
    if (code) expect(body.code).toBe(code);
  }
  expect(text).not.toMatch(/\n\s+at |\bat .+\.(ts|js|mjs):\d+|node_modules|\/work\//);
}

/** Same as expectCleanError, for a fetch Response. */
export async function expectCleanErrorResponse(
  res: Response,
  expected?: number | number[],
  code?: string,
): Promise<Record<string, unknown>> {
  const text = await res.text();
  expectCleanError(res.status, text, expected, code);
  return text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The tokens of a REST sign-in. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** Signs in through `POST /api/login` and returns the token pair (fails the test otherwise). */
export async function restLogin(
  base: string,
  username = "user",
  password = "password",
  headers: Record<string, string> = {},
): Promise<Tokens> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as Tokens & { success: boolean };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { accessToken: body.accessToken, refreshToken: body.refreshToken };
}

/** Signs a browser in through the form (CSRF token from the login page); returns the 302 answer. */
export async function formLogin(
  browser: Browser,
  username = "user",
  password = "password",
): Promise<Response> {
  const csrf = await browser.csrfFrom("/login");
  return browser.postForm("/login", { username, password, _csrf: csrf });
}

/** GET /api/me as JSON with the browser's cookies; the username or undefined (401). */
export async function whoAmI(browser: Browser): Promise<string | undefined> {
  const res = await browser.fetch("/api/me", { headers: { accept: "application/json" } });
  const body = (await res.json()) as { username?: string; code?: string };
  if (res.status === 401) return undefined;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.username;
}

/** A GET with a bearer token, answering status and JSON body. */
export async function getWithBearer(
  base: string,
  path: string,
  token: string,
): Promise<{ status: number; body: Record<string, unknown>; wwwAuthenticate: string | null }> {
  const res = await fetch(base + path, {
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
  });
  const text = await res.text();
  expectNoStack(text);
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    wwwAuthenticate: res.headers.get("www-authenticate"),
  };
}

/** Fails when a body looks like it carries a stack trace. */
export function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at |\bat .+\.(ts|js|mjs):\d+|node_modules/);
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The decoded header and payload of a compact JWS. */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [h, p] = token.split(".");
  return {
    header: JSON.parse(Buffer.from(h!, "base64url").toString("utf8")) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p!, "base64url").toString("utf8")) as Record<string, unknown>,
  };
}

/** A compact JWS with the given header and payload and a signature (default: none). */
export function compactJws(header: unknown, payload: unknown, signature = ""): string {
  return `${b64(header)}.${b64(payload)}.${signature}`;
}

/** An ES256 JWS signed by a freshly generated P-256 key the server has never seen (made with node:crypto). */
export function signWithForeignEs256Key(header: Record<string, unknown>, payload: unknown): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const input = `${b64({ ...header, alg: "ES256" })}.${b64(payload)}`;
  const signature = sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" });
  return `${input}.${signature.toString("base64url")}`;
}

export { Browser };
