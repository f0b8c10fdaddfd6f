import { request } from "node:http";
import { createHttpApp, type HttpApp, httpPlugin, RouteRegistry, serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform, seedDemoUsers } from "@keyward/cli";
import {
  authzPlugin,
  createIdentityPlugin,
  mfaPlugin,
  createPlatform,
  type Platform,
  type SecurityRegistry,
} from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDemoAuthorizationRoutes, registerDemoOrders } from "../../packages/cli/src/demo-authorization.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";
import { pathVariants } from "./path-variants.js";

// Issue #12, item 1: a policy-protected route must not be reachable through another spelling of
// its path (`DELETE /api/orders/7/` cancelled another user's order). Every protected demo route is
// tried with every variant, over a real socket (the request line exactly as written) and in-process
// (`app.request`), through the URL PDP (the demo's database policies) and through static rules.

const PROPERTIES = {
  ...LOW_COST_SCRYPT,
  "platform.auth.mfa.requiredAuthorities": "",
};

interface Server {
  platform: Platform;
  app: HttpApp["app"];
  port: number;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  text: string;
}

type Transport = (
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) => Promise<Answer>;

/** The request line exactly as given (fetch would normalise it first). */
const socket: Transport = (server, method, path, headers, body) =>
  new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });

const inProcess: Transport = async (server, method, path, headers, body) => {
  const res = await server.app.request(path, { method, headers, body });
  return { status: res.status, text: await res.text() };
};

const TRANSPORTS: Array<[string, Transport]> = [
  ["socket", socket],
  ["app.request", inProcess],
];

async function serve(platform: Platform, app: HttpApp["app"]): Promise<Server> {
  const server = await serveHttp(app, { port: 0 });
  return {
    platform,
    app,
    port: server.port,
    close: async () => {
      await server.close(true);
      await platform.stop();
    },
  };
}

/** The demo: `/admin/**`, `/api/orders/{id}` (DELETE) and `/api/orders/**` decided by the URL PDP. */
async function demoServer(): Promise<Server> {
  // The AI decisions are test/decisions' subject: a burst of denied variants would be decided here.
  const properties = { ...PROPERTIES, "platform.security.decision.enabled": false };
  const demo = await buildDemoPlatform({ properties }, {});
  return serve(demo.platform, demo.app);
}

/** The demo's routes behind one REST chain whose guards are static `hasRole` rules (no policies). */
async function staticRulesServer(): Promise<Server> {
  const platform = createPlatform({
    plugins: [
      httpPlugin,
      createIdentityPlugin({
        security: (r: SecurityRegistry) =>
          r
            .rest((rest) =>
              rest.rawHttp((http) =>
                http.authorizeHttpRequests((a) =>
                  a
                    .requestMatchers("DELETE", "/api/orders/{id}")
                    .hasRole("ADMIN")
                    .requestMatchers("/admin/**")
                    .hasRole("ADMIN")
                    .anyRequest()
                    .permitAll(),
                ),
              ),
            )
            .oauth2()
            .build(),
      }),
      mfaPlugin,
      authzPlugin,
    ],
    properties: PROPERTIES,
    env: {},
  });
  registerDemoOrders(platform);
  const routes = new RouteRegistry();
  addDemoAuthorizationRoutes(routes, platform);
  await platform.start();
  await seedDemoUsers(platform);
  const { app } = createHttpApp({ platform, routes });
  return serve(platform, app);
}

async function bearer(server: Server, username: string, password: string): Promise<Record<string, string>> {
  const res = await socket(
    server,
    "POST",
    "/api/login",
    { "content-type": "application/json" },
    JSON.stringify({ username, password }),
  );
  expect(res.status).toBe(200);
  const { accessToken } = JSON.parse(res.text) as { accessToken: string };
  return {
    authorization: `Bearer ${accessToken}`,
    accept: "application/json",
    "content-type": "application/json",
  };
}

async function placeOrder(server: Server, user: Record<string, string>): Promise<string> {
  const res = await socket(server, "POST", "/api/orders", user, JSON.stringify({ item: "tea" }));
  expect(res.status).toBe(201);
  return (JSON.parse(res.text) as { id: string }).id;
}

/** Whether the order is still there, asked as its owner (an admin) on the canonical path. */
async function orderExists(server: Server, admin: Record<string, string>, id: string): Promise<boolean> {
  const res = await socket(server, "GET", `/api/orders/${id}`, admin);
  expect([200, 404]).toContain(res.status);
  return res.status === 200;
}

/** A protected route: who must be refused, who may pass, and the body a request carries. */
interface Protected {
  method: string;
  path: string;
  /** The caller who must never reach the handler ("anonymous": no credentials). */
  refused: "user" | "anonymous";
  /** The caller who is let in on the canonical path (the positive control). */
  allowed: "user" | "admin";
  body?: string;
}

const SIMULATE_BODY = JSON.stringify({ username: "user", method: "GET", path: "/admin" });

/** The demo's protected routes: database policies, and the static rules it has (`/admin/api/**`, step-up). */
const DEMO_ROUTES: Protected[] = [
  { method: "GET", path: "/admin", refused: "user", allowed: "admin" },
  { method: "GET", path: "/admin/api/audit", refused: "user", allowed: "admin" },
  { method: "GET", path: "/admin/api/policies", refused: "user", allowed: "admin" },
  {
    method: "POST",
    path: "/admin/api/policies/simulate",
    refused: "user",
    allowed: "admin",
    body: SIMULATE_BODY,
  },
  { method: "GET", path: "/api/orders", refused: "anonymous", allowed: "user" },
  { method: "GET", path: "/account/security", refused: "user", allowed: "user" },
  { method: "GET", path: "/api/account/security", refused: "user", allowed: "user" },
];

const STATIC_ROUTES: Protected[] = [
  { method: "GET", path: "/admin", refused: "user", allowed: "admin" },
  { method: "GET", path: "/admin/api/audit", refused: "user", allowed: "admin" },
];

/** A refusal: any 3xx/4xx (400 firewall, 401, 403, 404, 405), never the handler's 2xx nor a 500. */
const isRefusal = (status: number): boolean => status >= 300 && status < 500;

for (const [kind, start, routes] of [
  ["the URL PDP (database policies)", demoServer, DEMO_ROUTES],
  ["static hasRole rules", staticRulesServer, STATIC_ROUTES],
] as const) {
  describe(`path variants against ${kind}`, () => {
    let server: Server;
    const callers: Record<string, Record<string, string>> = {};
    beforeAll(async () => {
      server = await start();
      callers.anonymous = { accept: "application/json", "content-type": "application/json" };
      callers.user = await bearer(server, "user", "password");
      callers.admin = await bearer(server, "admin", "admin");
    });
    afterAll(() => server.close());

    for (const [transport, send] of TRANSPORTS) {
      it(`DELETE /api/orders/{id} (${transport}): no variant cancels another's order as user`, async () => {
        const id = await placeOrder(server, callers.admin!);
        const reached: string[] = [];
        for (const [label, path] of pathVariants(`/api/orders/${id}`)) {
          const res = await send(server, "DELETE", path, callers.user!);
          const exists = await orderExists(server, callers.admin!, id);
          if (!isRefusal(res.status) || !exists) reached.push(`${label} ${path} → ${res.status}`);
          if (!exists) break;
        }
        expect(reached).toEqual([]);
        // Positive control: the same variant cancels for an admin (one route, one canonical path).
        const admin = await send(server, "DELETE", `/api/orders/${id}/`, callers.admin!);
        expect(admin.status).toBe(200);
        expect(await orderExists(server, callers.admin!, id)).toBe(false);
      });

      for (const route of routes) {
        it(`${route.method} ${route.path} (${transport}): no variant reaches it as ${route.refused}`, async () => {
          const reached: string[] = [];
          for (const [label, path] of pathVariants(route.path)) {
            const res = await send(server, route.method, path, callers[route.refused]!, route.body);
            if (!isRefusal(res.status)) reached.push(`${label} ${path} → ${res.status}`);
          }
          expect(reached).toEqual([]);
          for (const path of [route.path, `${route.path}/`]) {
            const ok = await send(server, route.method, path, callers[route.allowed]!, route.body);
            if (route.path.includes("account"))
              expect(ok.status, path).toBe(401); // step-up asked for
            else expect(ok.status, path).toBe(200);
          }
        });
      }
    }
  });
}

describe("the policy simulator judges the path a real request would be judged on", () => {
  let server: Server;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await demoServer();
    admin = await bearer(server, "admin", "admin");
  });
  afterAll(() => server.close());

  const simulate = (path: string) =>
    socket(
      server,
      "POST",
      "/admin/api/policies/simulate",
      admin,
      JSON.stringify({ username: "user", method: "DELETE", path }),
    );

  it.each(["/api/orders/7", "/api/orders/7/", "/api/orders/%37", "/%61pi/orders/7/"])(
    "%s is explained as /api/orders/7 under 'Orders: cancel'",
    async (path) => {
      const res = await simulate(path);
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text) as { path: string; decision: Record<string, unknown> };
      expect(body.path).toBe("/api/orders/7");
      expect(body.decision).toMatchObject({ granted: false, policyName: "Orders: cancel" });
    },
  );

  it.each(["/api//orders/7", "/api/orders/./7", "/api/orders/%2e/7", "/api/orders%2f7", "/api/orders/7;x"])(
    "%s, which the firewall refuses, is a validation error",
    async (path) => {
      const res = await simulate(path);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ code: "VALIDATION_FAILED" });
    },
  );
});
