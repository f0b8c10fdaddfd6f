import { closedLoop, type LoopBounds, type RawRun } from "./closed-loop.js";

/**
 * One HTTP load run, as plain data so that it can be posted to a worker thread: which request, where,
 * how many at once and for how long. `warmup` requests (same concurrency, not measured) run first, so
 * that connections are open and code is compiled when measuring starts.
 */
export interface HttpLoadSpec extends LoopBounds {
  /** `login`: POST /api/login with the demo user's JSON credentials; `me`: GET /api/me with `token`. */
  request: "login" | "me";
  /** `http://127.0.0.1:PORT`; anything else is refused. */
  baseUrl: string;
  /** Bearer access token, for `me`. */
  token?: string;
  /** Each worker sends `X-Forwarded-For: 198.51.100.<worker+1>`, posing as its own client address. */
  distinctAddresses?: boolean;
  warmup: number;
  /** Per-request timeout in ms; a request that takes longer counts as an error. */
  timeoutMs: number;
}

/** The demo's seeded user (packages/cli/src/demo-security.ts). */
export const DEMO_CREDENTIALS = { username: "user", password: "password" } as const;

/** Refuses any target but plain HTTP on the IPv4 loopback address. */
export function assertLoopback(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" || url.hostname !== "127.0.0.1" || url.pathname !== "/") {
    throw new Error(`benchmark targets must be http://127.0.0.1:PORT, not ${baseUrl}`);
  }
  return url;
}

/**
 * Runs the warm-up, then the measured closed loop, with Node's fetch (undici, keep-alive by
 * default: each worker keeps reusing a pooled connection). Every answer must be 200 with the
 * expected body; anything else is an error named by status and the start of the body.
 */
export async function runHttpLoad(spec: HttpLoadSpec): Promise<RawRun> {
  const base = assertLoopback(spec.baseUrl);
  const send = requestFor(spec, base);
  if (spec.warmup > 0) await closedLoop({ concurrency: spec.concurrency, count: spec.warmup }, send);
  return closedLoop({ concurrency: spec.concurrency, count: spec.count, durationMs: spec.durationMs }, send);
}

function requestFor(spec: HttpLoadSpec, base: URL): (worker: number) => Promise<void> {
  const headersFor = (worker: number, extra: Record<string, string>): Record<string, string> =>
    spec.distinctAddresses ? { ...extra, "x-forwarded-for": `198.51.100.${(worker % 254) + 1}` } : extra;
  if (spec.request === "login") {
    const url = new URL("/api/login", base);
    const body = JSON.stringify(DEMO_CREDENTIALS);
    return async (worker) => {
      const res = await fetch(url, {
        method: "POST",
        headers: headersFor(worker, { "content-type": "application/json", accept: "application/json" }),
        body,
        signal: AbortSignal.timeout(spec.timeoutMs),
      });
      const json = await expectJson(res);
      if (json.success !== true || typeof json.accessToken !== "string" || json.tokenType !== "Bearer") {
        throw new Error(`login answered 200 without a bearer token: ${JSON.stringify(json).slice(0, 120)}`);
      }
    };
  }
  if (!spec.token) throw new Error("the `me` request needs a token");
  const url = new URL("/api/me", base);
  const authorization = `Bearer ${spec.token}`;
  return async (worker) => {
    const res = await fetch(url, {
      headers: headersFor(worker, { authorization, accept: "application/json" }),
      signal: AbortSignal.timeout(spec.timeoutMs),
    });
    const json = await expectJson(res);
    if (json.username !== DEMO_CREDENTIALS.username) {
      throw new Error(`/api/me answered 200 for someone else: ${JSON.stringify(json).slice(0, 120)}`);
    }
  };
}

/** Reads the whole body (so the connection goes back to the pool) and insists on 200 JSON. */
async function expectJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${text.slice(0, 160)}`);
  return JSON.parse(text) as Record<string, unknown>;
}
