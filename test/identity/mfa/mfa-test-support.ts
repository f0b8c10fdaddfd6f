import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  antMatcher,
  notMatcher,
  orMatcher,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { expect } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  type IdentityTestServerOptions,
  startIdentityServer,
} from "../identity-test-server.js";

export { Browser, demoSecurity, type IdentityTestServer, startIdentityServer };

/** The MFA binding cookie (`<mfaSessionId>.<secret>`). */
export const MFA_COOKIE = "PLATFORM_MFA";
/** The session cookie. */
export const SESSION_COOKIE = "PLATFORM_SESSION";
/** JSON request headers. */
export const JSON_ACCEPT = { accept: "application/json" } as const;

/** One line of the OTT/MFA outbox. */
export interface OutboxLine {
  username: string;
  token: string;
  link: string;
  to: string;
  channel: string;
}

/** A fresh outbox file path in a temporary directory. */
export function newOutboxFile(): string {
  return join(mkdtempSync(join(tmpdir(), "mfa-outbox-")), "outbox.jsonl");
}

/** The outbox lines written so far. */
export function outbox(file: string): OutboxLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as OutboxLine);
}

/** Waits for the n-th outbox line (delivery runs just after the answer). */
export async function waitForLine(file: string, n: number): Promise<OutboxLine> {
  for (let i = 0; i < 150; i++) {
    const lines = outbox(file);
    if (lines.length >= n) return lines[n - 1]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no outbox line ${n} in ${file}`);
}

/** Runs `action` and returns the MFA code it caused to be delivered to `username`. */
export async function codeAfter<T>(
  file: string,
  username: string,
  action: () => Promise<T>,
): Promise<{ result: T; code: string }> {
  const before = outbox(file).length;
  const result = await action();
  const line = await waitForLine(file, before + 1);
  expect(line).toMatchObject({ channel: "mfa-code", username });
  return { result, code: line.token };
}

/** Starts a server with the MFA properties every MFA test needs (ROLE_ADMIN challenged, an outbox). */
export async function startMfaServer(
  options: Partial<IdentityTestServerOptions> & { outbox: string },
): Promise<IdentityTestServer> {
  return startIdentityServer({
    security: options.security ?? demoSecurity,
    register: options.register,
    routes: options.routes,
    properties: {
      "platform.auth.mfa.requiredAuthorities": "ROLE_ADMIN",
      "platform.auth.ott.outbox-file": options.outbox,
      ...options.properties,
    },
  });
}

/** The MFA-required answer of a primary step. */
export interface MfaRequired {
  mfaRequired: true;
  selectFactorUrl: string;
  mfaSessionId: string;
  status: string;
  state: string;
  nextStepUrl: string;
}

/** The body of a failure answer. */
export interface FailureBody {
  success: false;
  error: string;
  failureType: string;
  code: string;
  attemptsMade?: number;
  maxAttempts?: number;
}

/** Form primary login through the demo's `/login` page (CSRF from the page); JSON when `json`. */
export async function primaryForm(
  b: Browser,
  username: string,
  password: string,
  json = false,
  prefix = "",
): Promise<Response> {
  const csrf = await b.csrfFrom(`${prefix}/login`);
  return b.postForm(`${prefix}/login`, { username, password, _csrf: csrf }, json ? { ...JSON_ACCEPT } : {});
}

/** Admin's JSON form primary step with its delivered code; asserts the MFA-required answer. */
export async function startAdminMfa(
  s: IdentityTestServer,
  file: string,
  b: Browser = new Browser(s.url),
): Promise<{ b: Browser; body: MfaRequired; code: string; csrf: string }> {
  const { result, code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
  const body = (await result.json()) as MfaRequired;
  expect(result.status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
  return { b, body, code, csrf: await csrfOfSession(b) };
}

/** The session's CSRF token (the test server's `GET /csrf`). */
export async function csrfOfSession(b: Browser): Promise<string> {
  const { token } = (await (await b.fetch("/csrf")).json()) as { token: string | null };
  if (!token) throw new Error("no CSRF token for this session");
  return token;
}

/** Posts an MFA code as JSON with the session's CSRF token. */
export function verify(
  b: Browser,
  csrf: string,
  token: string,
  extra: Record<string, unknown> = {},
  path = "/login/mfa-ott",
): Promise<Response> {
  return b.postJson(path, { token, ...extra }, { "x-csrf-token": csrf });
}

/** GET the caller's MFA status (JSON). */
export async function mfaStatus(
  b: Browser,
  path = "/api/mfa/status",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await b.fetch(path, { headers: { ...JSON_ACCEPT } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** GET /api/me as JSON. */
export async function me(b: Browser): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await b.fetch("/api/me", { headers: { ...JSON_ACCEPT } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A code that is certainly not `code` (same length, digits). */
export function wrongCode(code: string): string {
  return code
    .split("")
    .map((d) => String((Number(d) + 1) % 10))
    .join("");
}

/** The passkey chain's paths: sign-in, management, the management page. */
export const PASSKEY_PATHS = ["/passkeys", "/webauthn/**", "/login/webauthn"];

/**
 * An MFA flow (form primary, OTT then passkey, `requiredFactors(n)`) on a session for everything the
 * passkey chain and `/api/**` do not claim, plus `/api/me` and the flow's `/api/mfa/**`; the passkey
 * chain (a session too) for registration and management.
 */
export function mfaWithPasskeySecurity(requiredFactors = 1): (r: SecurityRegistry) => SecurityConfiguration {
  return (r) => {
    const claimed = orMatcher(antMatcher("/api/**"), ...PASSKEY_PATHS.map((p) => antMatcher(p)));
    return r
      .mfa((m) =>
        m
          .primaryAuthentication((p) => p.formLogin((f) => f.defaultSuccessUrl("/")))
          .ott()
          .passkey()
          .requiredFactors(requiredFactors)
          .rawHttp((h) =>
            h.securityMatcher(
              orMatcher(notMatcher(claimed), antMatcher("/api/me"), antMatcher("/api/mfa/**")),
            ),
          ),
      )
      .session()
      .passkey((p) => p.rawHttp((h) => h.securityMatcher(...PASSKEY_PATHS)))
      .session()
      .build();
  };
}

/**
 * The chains of a plugin-factor test: one MFA flow (form login, the e-mailed code, then `factors`),
 * one factor required, with a session.
 */
export function formFlowOffering(...factors: string[]): (r: SecurityRegistry) => SecurityConfiguration {
  return (r) =>
    r
      .mfa((m) => {
        const flow = m.primaryAuthentication((p) => p.formLogin((f) => f.defaultSuccessUrl("/"))).ott();
        for (const type of factors) flow.factor(type);
        return flow.requiredFactors(1);
      })
      .session()
      .build();
}

/** What {@link startFactorFlowServer} varies. */
export interface FactorFlowServerOptions {
  /** The outbox file the e-mailed codes and notices go to. */
  outbox: string;
  /** The plugin factors the flow offers besides the e-mailed code. */
  factors?: readonly string[];
  /** The plugins that register those factors. */
  plugins?: IdentityTestServerOptions["plugins"];
  /** Properties beyond "administrators are challenged" and the outbox. */
  properties?: Record<string, unknown>;
}

/**
 * The server of a plugin-factor test: {@link formFlowOffering} the given factors, administrators
 * challenged at sign-in, codes and notices to `outbox`.
 */
export function startFactorFlowServer(o: FactorFlowServerOptions): Promise<IdentityTestServer> {
  return startIdentityServer({
    security: formFlowOffering(...(o.factors ?? [])),
    ...(o.plugins ? { plugins: o.plugins } : {}),
    properties: {
      "platform.auth.mfa.requiredAuthorities": "ROLE_ADMIN",
      "platform.auth.ott.outbox-file": o.outbox,
      ...o.properties,
    },
  });
}
