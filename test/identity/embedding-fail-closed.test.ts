import { createHttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import { createIdentityPlugin, createPlatform, type Platform } from "@keyward/core";
import { FilterChainProxy } from "@keyward/core/identity";
import type { PlatformError } from "@keyward/core/errors";
import { Clock, IdGenerator, Logger, UserRepository } from "@keyward/core/ports";
import { afterEach, describe, expect, it } from "vitest";
import { CapturingLogger } from "../../packages/adapters-http/src/test-support.js";
import { InMemoryUserRepository } from "../../packages/core/src/identity/users/in-memory-user-repository.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

const platforms: Platform[] = [];
afterEach(async () => {
  for (const p of platforms.splice(0)) await p.stop();
});

/** The README's embedding: identity with a form chain that protects everything, one private route. */
async function embed(start = true) {
  const logger = new CapturingLogger();
  const platform = createPlatform({
    plugins: [
      httpPlugin,
      createIdentityPlugin({
        security: (r) =>
          r
            .form((f) =>
              f.rawHttp((http) => http.authorizeHttpRequests((a) => a.anyRequest().authenticated())),
            )
            .session()
            .build(),
      }),
    ],
    properties: { ...LOW_COST_SCRYPT },
    env: {},
    register: (c) => c.registerInstance(Logger, logger),
  });
  platforms.push(platform);
  if (start) await platform.start();
  const routes = new RouteRegistry();
  routes.add({ method: "GET", path: "/private", handler: () => ({ secret: 42 }) });
  return { platform, routes, logger };
}

const asJson = { headers: { accept: "application/json" } };

/** A platform with the HTTP binding only (no identity module). */
async function bare() {
  const logger = new CapturingLogger();
  const platform = createPlatform({
    plugins: [httpPlugin],
    env: {},
    register: (c) => c.registerInstance(Logger, logger),
  });
  platforms.push(platform);
  await platform.start();
  return { platform, logger };
}

describe("createHttpApp runs the platform's security steps with nothing wired by hand", () => {
  it("runs the chains by default: the README's createHttpApp({ platform }) protects routes", async () => {
    const { platform, routes } = await embed();
    const { app } = createHttpApp({ platform, routes });
    const res = await app.request("/private", asJson);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("AUTHENTICATION_REQUIRED");
    // The request firewall runs too (it lives in the chain proxy).
    expect((await app.request("/private;jsessionid=x", asJson)).status).toBe(400);
  });

  it("does not run the chains twice when the host still lists the proxy as an interceptor", async () => {
    const { platform, routes } = await embed();
    const proxy = platform.resolve(FilterChainProxy);
    // The pipeline's own steps run the chains (401); the proxy listed as an interceptor is dropped,
    // so it never runs them a second time.
    let intercepted = 0;
    const intercept = proxy.intercept.bind(proxy);
    proxy.intercept = (exchange, next) => {
      intercepted++;
      return intercept(exchange, next);
    };
    const { app } = createHttpApp({ platform, routes, interceptors: [proxy] });
    expect((await app.request("/private", asJson)).status).toBe(401);
    expect(intercepted).toBe(0);
  });

  it("an app built before platform.start() gets the chains once started, and refuses requests before", async () => {
    const { platform, routes } = await embed(false);
    const { app } = createHttpApp({ platform, routes });
    expect((await app.request("/private", asJson)).status).toBe(500);
    await platform.start();
    expect((await app.request("/private", asJson)).status).toBe(401);
  });

  it("a platform without the identity module has no security steps: it serves routes and logs a warning", async () => {
    const { platform, logger } = await bare();
    const routes = new RouteRegistry();
    routes.add({ method: "GET", path: "/open", handler: () => ({ ok: true }) });
    const { app, pipeline } = createHttpApp({ platform, routes });
    expect(pipeline.has("firewall")).toBe(false);
    expect((await app.request("/open")).status).toBe(200);
    expect(
      logger.entries.some(
        (e) => e.level === "warn" && e.message.includes("every route answers without authentication"),
      ),
    ).toBe(true);
  });

  it("users without the identity module are refused with the plugin to add (the README's old snippet)", async () => {
    const platform = createPlatform({
      plugins: [httpPlugin],
      env: {},
      overrides: (o) =>
        o.override(UserRepository, {
          useFactory: (c) =>
            new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
        }),
    });
    platforms.push(platform);
    await platform.start();
    const refusal = (() => {
      try {
        createHttpApp({ platform });
      } catch (error) {
        return error as PlatformError;
      }
      throw new Error("createHttpApp accepted users without the identity module");
    })();
    expect(refusal.code).toBe("CONFIGURATION_INVALID");
    expect(refusal.message).toContain("add createIdentityPlugin({ security })");
  });

  it("a platform without the identity module but with the host's own interceptor logs no warning", async () => {
    const { platform, logger } = await bare();
    createHttpApp({ platform, interceptors: [{ intercept: (_exchange, next) => next() }] });
    expect(logger.entries.filter((e) => e.message.startsWith("createHttpApp"))).toEqual([]);
  });
});
