import { createHttpApp, httpPlugin, RouteRegistry } from "@platform/adapters-http";
import { createPlatform, type Platform } from "@platform/core";
import type { HostConfig } from "./host-config.js";
import { homePage } from "./home-page.js";

/** The assembled demo: platform, HTTP app and its routes, before it listens. */
export interface DemoPlatform {
  platform: Platform;
  app: ReturnType<typeof createHttpApp>["app"];
  routes: RouteRegistry;
}

/**
 * Builds the demo on the embedded in-memory defaults, applying a host configuration module when
 * one is given. Each later capability (identity, MFA, authorization) adds itself here.
 */
export async function buildDemoPlatform(host: HostConfig = {}, env = process.env): Promise<DemoPlatform> {
  const platform = createPlatform({
    plugins: [httpPlugin, ...(host.plugins ?? [])],
    properties: host.properties,
    env,
    register: host.register,
  });
  const routes = new RouteRegistry();
  routes.add({
    method: "GET",
    path: "/",
    handler: (ex) => ex.html(200, homePage(platform)),
    description: "Home page",
  });
  host.routes?.(routes, platform);
  await platform.start();
  const { app } = createHttpApp({ platform, routes });
  return { platform, app, routes };
}
