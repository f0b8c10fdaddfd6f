import { createHttpApp, httpPlugin, RouteRegistry, serveHttp } from "@platform/adapters-http";
import {
  authzPlugin,
  createIdentityPlugin,
  mfaPlugin,
  createPlatform,
  csrfToken,
  currentAuthentication,
  type Platform,
  type PlatformOptions,
  type SecurityConfiguration,
  type SecurityRegistry,
  ServerAddress,
} from "@platform/core";
import { FilterChainProxy } from "@platform/core/identity";
import { seedDemoUsers } from "@platform/cli";

/** A running identity server on an ephemeral port, with helpers for cookie-carrying requests. */
export interface IdentityTestServer {
  url: string;
  platform: Platform;
  close(): Promise<void>;
}

/** Options of startIdentityServer. */
export interface IdentityTestServerOptions {
  security: (registry: SecurityRegistry) => SecurityConfiguration;
  /** Property values; scrypt cost is lowered to 2^14, MFA required by no role and no rejection padding, unless set. */
  properties?: Record<string, unknown>;
  register?: PlatformOptions["register"];
  routes?: (routes: RouteRegistry) => void;
}

/**
 * Starts the real stack (platform + identity + h3 binding) on 127.0.0.1 with the demo users
 * (user/password, admin/admin) and a few application routes: `GET /` and `GET /private/data`
 * answer who is signed in, `POST /api/things` and `POST /things` echo the JSON body, `GET /csrf`
 * answers the session's CSRF token (as a host page would embed it).
 */
export async function startIdentityServer(options: IdentityTestServerOptions): Promise<IdentityTestServer> {
  const platform = createPlatform({
    // authzPlugin: the demo's chains end in anyRequest().access(dynamicAuthorization()) (no policies here).
    plugins: [httpPlugin, createIdentityPlugin({ security: options.security }), mfaPlugin, authzPlugin],
    // No role needs MFA unless a test says so (the MFA tests set platform.auth.mfa.requiredAuthorities).
    properties: {
      "platform.auth.password.scrypt.cost-log2": 14,
      "platform.auth.mfa.requiredAuthorities": "",
      "platform.auth.mfa.minimumRejectionDelayMs": 0,
      ...options.properties,
    },
    env: {},
    register: options.register,
  });
  await platform.start();
  await seedDemoUsers(platform);
  const routes = new RouteRegistry();
  const who = (ex: Parameters<typeof currentAuthentication>[0]) => ({
    user: currentAuthentication(ex)?.username ?? null,
  });
  routes.add({ method: "GET", path: "/", handler: who });
  routes.add({ method: "GET", path: "/private/data", handler: who });
  routes.add({ method: "GET", path: "/api/data", handler: who });
  routes.add({
    method: "POST",
    path: "/api/things",
    handler: async (ex) => ({ ...who(ex), got: await ex.fields(["json"]) }),
  });
  routes.add({
    method: "POST",
    path: "/things",
    handler: async (ex) => ({ ...who(ex), got: await ex.fields() }),
  });
  routes.add({
    method: "GET",
    path: "/csrf",
    handler: async (ex) => ({ token: (await csrfToken(ex)?.value()) ?? null }),
  });
  options.routes?.(routes);
  const { app } = createHttpApp({ platform, routes, interceptors: [platform.resolve(FilterChainProxy)] });
  const server = await serveHttp(app, { port: 0 });
  platform.resolve(ServerAddress).port = server.port;
  return {
    url: server.url,
    platform,
    async close() {
      await server.close(true);
      await platform.stop();
    },
  };
}

/** A tiny cookie jar for one browser-like client. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  /** Sends a request with the jar's cookies, stores Set-Cookie, never follows redirects. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(this.base + path, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a)) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** GETs a page and returns the CSRF token from its `<meta name="_csrf">`. */
  async csrfFrom(path: string): Promise<string> {
    const html = await (await this.fetch(path)).text();
    const m = /<meta name="_csrf" content="([^"]+)">/.exec(html);
    if (!m) throw new Error(`no CSRF meta tag on ${path}`);
    return m[1]!;
  }

  /** Posts an urlencoded form. */
  postForm(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Posts JSON. */
  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }
}

/** The demo's two chains: form+session for pages (and /api/me), REST+JWT for /api/**. */
export { demoSecurity } from "@platform/cli";
