import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform, type HostConfig } from "@keyward/cli";
import { type Platform, ServerAddress } from "@keyward/core";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { expect } from "vitest";
import { newOutboxFile, outbox, waitForLine } from "../identity/mfa/mfa-test-support.js";
import { LOW_COST_SCRYPT } from "./low-cost-scrypt.js";
import { QUIET_ACCESS_LOG } from "./quiet-access-log.js";

/** The demo (`buildDemoPlatform`) listening on an ephemeral port, with its own outbox file. */
export interface RunningDemo {
  base: string;
  platform: Platform;
  /** The outbox file codes and links are appended to. */
  outboxFile: string;
  /** Runs `action`, then returns the MFA code it caused to be mailed to `username`. */
  codeAfter<T>(username: string, action: () => Promise<T>): Promise<{ result: T; code: string }>;
  close(): Promise<void>;
}

/** Properties that let `admin` sign in without a mailed code (the MFA tests cover that path). */
export const NO_MFA_FOR_ADMINS = { "platform.auth.mfa.requiredAuthorities": "" } as const;

/**
 * Starts the demo as `pnpm start` builds it (chains, users, policies, orders), with a cheaper scrypt,
 * no rejection padding, a temporary outbox and the AI security decisions off (a test turns them on
 * with `platform.security.decision.enabled: true`); `env` is read as the process environment would be;
 * `host` adds a host configuration's plugins and routes; `listen.port` fixes the port (a restart test
 * comes back where it was: the passkey origin names the port).
 */
export async function startDemo(
  env: Record<string, string> = {},
  properties: Record<string, unknown> = {},
  host: Omit<HostConfig, "properties"> = {},
  listen: { port?: number } = {},
): Promise<RunningDemo> {
  const outboxFile = newOutboxFile();
  const demo = await buildDemoPlatform(
    {
      ...host,
      properties: {
        ...LOW_COST_SCRYPT,
        ...QUIET_ACCESS_LOG,
        "platform.auth.mfa.minimumRejectionDelayMs": 0,
        "platform.auth.ott.outbox-file": outboxFile,
        // Off unless a test turns it on: the AI decisions land off the request path, at times a test
        // about something else cannot fix (test/decisions turns them on).
        "platform.security.decision.enabled": false,
        ...properties,
      },
    },
    env,
  );
  const server = await serveHttp(demo.app, { port: listen.port ?? 0, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddress).port = server.port;
  return {
    base: `http://127.0.0.1:${server.port}`,
    platform: demo.platform,
    outboxFile,
    async codeAfter(username, action) {
      const before = outbox(outboxFile).length;
      const result = await action();
      for (let n = before + 1; ; n++) {
        const line = await waitForLine(outboxFile, n);
        if (line.channel === "mfa-code" && line.username === username) return { result, code: line.token };
      }
    },
    async close() {
      await server.close(true);
      await demo.platform.stop();
    },
  };
}

/** A JSON request (what `curl -H 'content-type: application/json' -d ...` sends). */
export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

/** The "MFA required" answer of an API sign-in. */
export interface ApiMfaRequired {
  mfaRequired: true;
  mfaSessionId: string;
  mfaBinding: string;
  state: string;
  endpoints: {
    verifyOtt: string;
    generateCode: string;
    selectFactor: string;
    status: string;
    cancel: string;
  };
}

/** The headers every later step of an API MFA flow sends. */
export function bindingHeaders(
  mfa: Pick<ApiMfaRequired, "mfaSessionId" | "mfaBinding">,
): Record<string, string> {
  return { "x-mfa-session-id": mfa.mfaSessionId, "x-mfa-binding": mfa.mfaBinding };
}

/** Signs `username` in at the demo's REST login and returns headers carrying the bearer token. */
export async function bearerHeaders(
  base: string,
  username: string,
  password: string,
  extra: Record<string, string> = { "content-type": "application/json" },
): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/login`, json("POST", { username, password }));
  expect(res.status).toBe(200);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}`, ...extra };
}

/**
 * Signs `username` in through the demo's API MFA flow with the mailed code and returns the access
 * token: a bearer caller with a second factor proved just now (what step-up routes ask for).
 */
export async function mfaBearerToken(demo: RunningDemo, username: string, password: string): Promise<string> {
  const { result, code } = await demo.codeAfter(username, () =>
    fetch(`${demo.base}/api/login`, json("POST", { username, password })),
  );
  const mfa = (await result.json()) as ApiMfaRequired;
  const done = await fetch(
    `${demo.base}${mfa.endpoints.verifyOtt}`,
    json("POST", { token: code }, bindingHeaders(mfa)),
  );
  expect(done.status).toBe(200);
  return ((await done.json()) as { accessToken: string }).accessToken;
}

/** Adds a user straight to the platform's repository (hashed with its PasswordHasher). */
export async function seedUser(
  platform: Platform,
  username: string,
  password: string,
  authorities: string[] = ["ROLE_USER"],
): Promise<void> {
  const passwordHash = await platform.resolve(PasswordHasher).hash(password);
  await platform.resolve(UserRepository).create({ username, passwordHash, authorities });
}
