import { request as httpRequest } from "node:http";
import { createHttpApp, httpPlugin, RouteRegistry, serveHttp } from "@keyward/adapters-http";
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
  type PlatformPlugin,
} from "@keyward/core";
import { seedDemoUsers } from "@keyward/cli";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";
import { QUIET_ACCESS_LOG } from "../support/quiet-access-log.js";

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
  /** Plugins listed after the MFA and authorization plugins (e.g. a plugin factor). */
  plugins?: PlatformPlugin[];
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
    plugins: [
      httpPlugin,
      createIdentityPlugin({ security: options.security }),
      mfaPlugin,
      authzPlugin,
      ...(options.plugins ?? []),
    ],
    // No role needs MFA unless a test says so (the MFA tests set platform.auth.mfa.requiredAuthorities).
    properties: {
      ...LOW_COST_SCRYPT,
      ...QUIET_ACCESS_LOG,
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
  const { app } = createHttpApp({ platform, routes });
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

/** The headers of a browser's top-level page navigation (Chromium's). */
export const PAGE_NAVIGATION: Readonly<Record<string, string>> = Object.freeze({
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "sec-fetch-mode": "navigate",
  "sec-fetch-dest": "document",
  "sec-fetch-site": "none",
});

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
    this.keepCookies(res);
    return res;
  }

  /**
   * A top-level page navigation as a browser sends it (GET, `Accept: text/html…`, `Sec-Fetch-Mode:
   * navigate`, `Sec-Fetch-Dest: document`), with the jar's cookies. Through node:http: Node's fetch
   * always sends `Sec-Fetch-Mode: cors`, which is what a script's request says, not a navigation's.
   */
  navigate(path: string): Promise<Response> {
    return this.get(path, PAGE_NAVIGATION);
  }

  /** A GET with exactly `headers` and the jar's cookies, through node:http (any `Sec-Fetch-*` is sent as given). */
  async get(path: string, headers: Readonly<Record<string, string>>): Promise<Response> {
    const url = new URL(this.base + path);
    const sent: Record<string, string> = { ...headers };
    if (this.cookies.size > 0) sent.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await new Promise<Response>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, headers: sent, agent: false },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (c: Buffer) => chunks.push(c));
          answer.on("error", reject);
          answer.on("end", () => {
            const pairs: [string, string][] = [];
            for (let i = 0; i < answer.rawHeaders.length; i += 2)
              pairs.push([answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!]);
            const body =
              answer.statusCode === 204 || answer.statusCode === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status: answer.statusCode ?? 0, headers: pairs }));
          });
        },
      );
      req.on("error", reject);
      req.end();
    });
    this.keepCookies(res);
    return res;
  }

  private keepCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a)) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
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
export { demoSecurity } from "@keyward/cli";
