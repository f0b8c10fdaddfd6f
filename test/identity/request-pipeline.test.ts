import { createHttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import { createIdentityPlugin, createPlatform, type Platform, type SecurityFilter } from "@keyward/core";
import type { HttpExchange, PipelineStep } from "@keyward/core/web";
import { afterEach, describe, expect, it } from "vitest";

const platforms: Platform[] = [];
afterEach(async () => {
  for (const p of platforms.splice(0)) await p.stop();
});

/** A fresh identity platform: a form chain whose rules protect `/private/**`, and a filter mounted after its rules. */
async function identityPlatform(log: string[]): Promise<Platform> {
  const mounted: SecurityFilter = {
    name: "mounted-after-authorization",
    filter: async (_exchange, next) => {
      log.push("chain:after-authorization");
      await next();
    },
  };
  const platform = createPlatform({
    plugins: [
      httpPlugin,
      createIdentityPlugin({
        security: (r) =>
          r
            .form((f) =>
              f.rawHttp((http) =>
                http
                  .authorizeHttpRequests((a) =>
                    a.requestMatchers("/private/**").authenticated().anyRequest().permitAll(),
                  )
                  .addFilterAfter(mounted, "authorization"),
              ),
            )
            .session()
            .build(),
      }),
    ],
    properties: { "platform.auth.password.scrypt.cost-log2": 14 },
    env: {},
  });
  platforms.push(platform);
  await platform.start();
  return platform;
}

function logging(log: string[], name: string, see?: (exchange: HttpExchange) => string): PipelineStep {
  return { name, apply: (exchange) => void log.push(see ? `${name} ${see(exchange)}` : name) };
}

const asJson = { headers: { accept: "application/json" } };

describe("the request pipeline through createHttpApp", () => {
  it("createHttpApp({ platform }) on a fresh identity platform protects a chain-rules route with no interceptor", async () => {
    const platform = await identityPlatform([]);
    const routes = new RouteRegistry();
    routes.add({ method: "GET", path: "/private/data", handler: () => ({ secret: 42 }) });
    const { app } = createHttpApp({ platform, routes });
    const res = await app.request("/private/data", asJson);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("AUTHENTICATION_REQUIRED");
  });

  it("runs a host's steps at the places they name, in order with the chain's own steps", async () => {
    const log: string[] = [];
    const platform = await identityPlatform(log);
    const routes = new RouteRegistry();
    const route = () => {
      log.push("route");
      return { ok: true };
    };
    routes.add({ method: "GET", path: "/open", handler: route });
    routes.add({ method: "GET", path: "/private/data", handler: route });
    const { app, pipeline } = createHttpApp({
      platform,
      routes,
      steps: [
        { before: "authorization", step: logging(log, "host:before-authorization") },
        // The security headers are written by the authentication segment: present once it ran.
        {
          after: "authentication",
          step: logging(
            log,
            "host:after-authentication",
            (e) => `headers=${e.response.headers.has("x-frame-options")}`,
          ),
        },
        {
          before: "firewall",
          step: logging(
            log,
            "host:before-firewall",
            (e) => `headers=${e.response.headers.has("x-frame-options")}`,
          ),
        },
      ],
    });
    expect(pipeline.stepNames()).toEqual([
      "host:before-firewall",
      "request-firewall",
      "select-chain",
      "chain-authentication",
      "host:after-authentication",
      "request-checkpoint",
      "chain-entry",
      "host:before-authorization",
      "chain-authorization",
      "route",
      "answer",
    ]);

    expect((await app.request("/open", asJson)).status).toBe(200);
    expect(log).toEqual([
      "host:before-firewall headers=false",
      "host:after-authentication headers=true",
      "host:before-authorization",
      "chain:after-authorization",
      "route",
    ]);

    // The chain's rules refuse an anonymous caller: the host's step before them ran, the route did not.
    log.length = 0;
    expect((await app.request("/private/data", asJson)).status).toBe(401);
    expect(log).toEqual([
      "host:before-firewall headers=false",
      "host:after-authentication headers=true",
      "host:before-authorization",
    ]);
  });

  it("refuses a step at an unknown place with CONFIGURATION_INVALID", async () => {
    const platform = await identityPlatform([]);
    expect(() =>
      createHttpApp({
        platform,
        steps: [{ before: "authorisation" as "authorization", step: logging([], "typo") }],
      }),
    ).toThrow(expect.objectContaining({ code: "CONFIGURATION_INVALID" }));
  });
});
