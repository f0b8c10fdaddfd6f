import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform, type HostConfig } from "@keyward/cli";
import { UserRepository } from "@keyward/core/ports";
import { DEMO_CREDENTIALS } from "./http-load.js";

/** The demo server, listening on 127.0.0.1, and what the benchmark needs from it. */
export interface BenchServer {
  /** `http://127.0.0.1:PORT` (the only kind of target the load generator accepts). */
  baseUrl: string;
  /** The demo user's (or `hashOf`'s) stored password hash (its parameters are the ones every login pays for). */
  storedHash: string;
  close(): Promise<void>;
}

/**
 * Builds the real demo (`pnpm start`'s `buildDemoPlatform`) with no host config and an empty
 * environment, so every default applies (scrypt ln=15, in-memory stores, generated JWT key), and
 * listens on an ephemeral loopback port. `trustProxy` trusts the loopback peer as a proxy
 * (`platform.http.trusted-proxies=loopback`), so that a client can pose as several addresses with
 * X-Forwarded-For; `register` is the host config's
 * `register` (the MFA scenario installs its code-capturing delivery there); `hashOf` names the
 * user whose stored hash is returned (default the REST login's demo user).
 */
export async function startDemoServer(
  options: { trustProxy?: boolean; register?: HostConfig["register"]; hashOf?: string } = {},
): Promise<BenchServer> {
  const properties = options.trustProxy ? { "platform.http.trusted-proxies": "loopback" } : undefined;
  const demo = await buildDemoPlatform({ properties, register: options.register }, {});
  const username = options.hashOf ?? DEMO_CREDENTIALS.username;
  const user = await demo.platform.resolve(UserRepository).findByUsername(username);
  if (!user?.passwordHash) {
    await demo.platform.stop();
    throw new Error(`demo user ${username} has no password hash`);
  }
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    storedHash: user.passwordHash,
    async close() {
      await server.close(true);
      await demo.platform.stop();
    },
  };
}

/** Signs the demo user in once and returns the access token (for the authenticated-request scenario). */
export async function loginOnce(baseUrl: string): Promise<string> {
  const res = await fetch(new URL("/api/login", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(DEMO_CREDENTIALS),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as { accessToken?: unknown };
  if (res.status !== 200 || typeof json.accessToken !== "string") {
    throw new Error(`login for the token failed: HTTP ${res.status}`);
  }
  return json.accessToken;
}
