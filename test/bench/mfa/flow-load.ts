import { performance } from "node:perf_hooks";
import { closedLoop, type LoopBounds, type RawRun } from "../login/closed-loop.js";
import { assertLoopback } from "../login/http-load.js";
import type { CodeSource } from "./code-capture.js";

/** The steps of one MFA OTT flow, in order, as the report splits it. */
export const MFA_PHASES = ["page", "primary", "code", "verify"] as const;
export type MfaPhase = (typeof MFA_PHASES)[number];

/** One MFA flow run, as plain data (posted to a worker thread). */
export interface MfaLoadSpec extends LoopBounds {
  /** `http://127.0.0.1:PORT`; anything else is refused. */
  baseUrl: string;
  /** A demo user the policy challenges (ROLE_ADMIN): `admin`. */
  credentials: { username: string; password: string };
  /** Each worker sends `X-Forwarded-For: 198.51.100.<worker+1>`, posing as its own client address. */
  distinctAddresses?: boolean;
  /** Flows (same concurrency, not measured) run first. */
  warmup: number;
  /** Per-request (and per code pickup) timeout in ms. */
  timeoutMs: number;
}

/** A RawRun whose operations are whole flows, with each successful flow's step times. */
export interface MfaRawRun extends RawRun {
  /** Milliseconds per phase, one entry per successful flow (same order as `latencies`). */
  phases: Record<MfaPhase, number[]>;
}

const MFA_BINDING_COOKIE = "PLATFORM_MFA";

/**
 * Runs the warm-up, then the measured closed loop of complete MFA OTT flows. Each flow is a new
 * browser (its own cookie jar) on a pooled keep-alive connection:
 * 1. `page`: GET /login (the session cookie and the CSRF token from the page's `<meta name="_csrf">`);
 * 2. `primary`: POST /login, form fields username/password/_csrf, `Accept: application/json` →
 *    200 `{mfaRequired: true, mfaSessionId, state: "OTT_CHALLENGE"}` and the PLATFORM_MFA cookie;
 * 3. `code`: the code the server handed to its OneTimeTokenDelivery, from the capture (bench overhead);
 * 4. `verify`: POST /login/mfa-ott `{token}` with the CSRF header and the cookies → 200 `{success: true}`.
 * Any other answer fails the flow (counted as an error by its message).
 */
export async function runMfaLoad(spec: MfaLoadSpec, codes: CodeSource): Promise<MfaRawRun> {
  const base = assertLoopback(spec.baseUrl);
  let phases = emptyPhases();
  const flow = async (worker: number): Promise<void> => {
    const times = await runFlow(spec, base, codes, worker);
    for (const phase of MFA_PHASES) phases[phase].push(times[phase]);
  };
  if (spec.warmup > 0) await closedLoop({ concurrency: spec.concurrency, count: spec.warmup }, flow);
  phases = emptyPhases();
  const run = await closedLoop(
    { concurrency: spec.concurrency, count: spec.count, durationMs: spec.durationMs },
    flow,
  );
  return { ...run, phases };
}

function emptyPhases(): Record<MfaPhase, number[]> {
  return { page: [], primary: [], code: [], verify: [] };
}

/** A flow after its primary step: the browser's cookies and CSRF token, the MFA session it got. */
export interface StartedMfaFlow {
  mfaSessionId: string;
  send: Sender;
  csrf: string;
  csrfHeader: string;
  /** ms of GET /login and of POST /login. */
  pageMs: number;
  primaryMs: number;
}

type Sender = (path: string, init: RequestInit & { headers: Record<string, string> }) => Promise<string>;

/**
 * Steps 1 and 2 of a flow as a new browser: GET /login, then POST /login with the credentials;
 * insists on an OTT challenge and on the PLATFORM_MFA cookie naming its MFA session.
 */
export async function startMfaFlow(options: {
  base: URL;
  credentials: { username: string; password: string };
  headers?: Record<string, string>;
  timeoutMs: number;
}): Promise<StartedMfaFlow> {
  const jar = new CookieJar();
  const send: Sender = async (path, init) => {
    const res = await fetch(new URL(path, options.base), {
      ...init,
      redirect: "manual",
      headers: { ...options.headers, ...init.headers, ...jar.header() },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    jar.store(res);
    const text = await res.text();
    if (res.status !== 200) {
      throw new Error(`${init.method ?? "GET"} ${path}: HTTP ${res.status} ${text.slice(0, 160)}`);
    }
    if (path === "/login/mfa-ott" && jar.get(MFA_BINDING_COOKIE) !== undefined) {
      throw new Error("POST /login/mfa-ott did not clear the PLATFORM_MFA cookie");
    }
    return text;
  };

  const t0 = performance.now();
  const page = await send("/login", { headers: { accept: "text/html" } });
  const csrf = metaContent(page, "_csrf");
  const csrfHeader = metaContent(page, "_csrf_header");
  const t1 = performance.now();

  const primary = JSON.parse(
    await send("/login", {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...options.credentials, _csrf: csrf }).toString(),
    }),
  ) as Record<string, unknown>;
  const mfaSessionId = primary.mfaSessionId;
  if (primary.mfaRequired !== true || typeof mfaSessionId !== "string" || primary.state !== "OTT_CHALLENGE") {
    throw new Error(`POST /login did not start an OTT challenge: ${JSON.stringify(primary).slice(0, 160)}`);
  }
  if (!jar.get(MFA_BINDING_COOKIE)?.startsWith(`${mfaSessionId}.`)) {
    throw new Error("POST /login set no PLATFORM_MFA cookie for its MFA session");
  }
  const t2 = performance.now();
  return { mfaSessionId, send, csrf, csrfHeader, pageMs: t1 - t0, primaryMs: t2 - t1 };
}

async function runFlow(
  spec: MfaLoadSpec,
  base: URL,
  codes: CodeSource,
  worker: number,
): Promise<Record<MfaPhase, number>> {
  const flow = await startMfaFlow({
    base,
    credentials: spec.credentials,
    headers: spec.distinctAddresses ? { "x-forwarded-for": `198.51.100.${(worker % 254) + 1}` } : {},
    timeoutMs: spec.timeoutMs,
  });
  const t2 = performance.now();
  const code = await codes.codeFor(flow.mfaSessionId, spec.timeoutMs);
  const t3 = performance.now();
  const verified = JSON.parse(
    await flow.send("/login/mfa-ott", {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        [flow.csrfHeader]: flow.csrf,
      },
      body: JSON.stringify({ token: code }),
    }),
  ) as Record<string, unknown>;
  if (verified.success !== true) {
    throw new Error(
      `POST /login/mfa-ott answered 200 without success: ${JSON.stringify(verified).slice(0, 160)}`,
    );
  }
  const t4 = performance.now();
  return { page: flow.pageMs, primary: flow.primaryMs, code: t3 - t2, verify: t4 - t3 };
}

function metaContent(html: string, name: string): string {
  const match = new RegExp(`<meta name="${name}" content="([^"]+)">`).exec(html);
  if (!match?.[1]) throw new Error(`GET /login: no <meta name="${name}"> in the page`);
  return match[1];
}

/** One browser's cookies: name → value; a cookie set with Max-Age=0 is removed. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
  }
}
