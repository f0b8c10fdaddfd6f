import { createHttpApp, RouteRegistry } from "@keyward/adapters-http";
import { createPlatform, csrfHiddenInput, currentAuthentication, type Platform } from "@keyward/core";
import { ServerAddress } from "@keyward/core";
import type { HttpExchange } from "@keyward/core/web";
import { demoPlugins } from "../demo-platform.js";
import { escapeHtml } from "../home-page.js";
import type { HostConfig } from "../host-config.js";
import { addSetupRoutes } from "./setup-routes.js";

/** A host configuration's platform as `platform serve` runs it, started, before it listens. */
export interface ServedPlatform {
  platform: Platform;
  app: ReturnType<typeof createHttpApp>["app"];
  routes: RouteRegistry;
  /** `/health/ready`'s view of a graceful shutdown. */
  readiness: ReturnType<typeof createHttpApp>["readiness"];
}

/**
 * Builds and starts a host configuration's platform: the platform's modules with the host's chains
 * (default: the demo's layout), properties, plugins, overrides and routes, plus the first
 * administrator's setup routes and, when the host serves no `GET /`, a plain home page (form sign-in
 * lands there). No demo user, policy, order service or demo route: what the store holds is the host's.
 */
export async function buildServePlatform(host: HostConfig, env = process.env): Promise<ServedPlatform> {
  const platform = createPlatform({
    plugins: demoPlugins(host),
    properties: host.properties,
    ...(host.source === undefined ? {} : { propertiesOrigin: `config module ${host.source}` }),
    env,
    register: host.register,
    overrides: host.overrides,
  });
  const routes = new RouteRegistry();
  host.routes?.(routes, platform);
  addSetupRoutes(routes, platform);
  if (!routes.list().some((r) => r.path === "/" && (r.method === "GET" || r.method === "ANY"))) {
    routes.add({
      method: "GET",
      path: "/",
      name: "serve.home",
      feature: "serve",
      description: "Home page (who is signed in)",
      handler: async (ex) => ex.html(200, await homePage(ex)),
    });
  }
  const { app, readiness } = createHttpApp({ platform, routes });
  await platform.start();
  return { platform, app, routes, readiness };
}

/** Records where the server listens, so absolute links (MFA, magic links) name it until a public URL is set. */
export function listeningOn(platform: Platform, port: number): void {
  platform.resolve(ServerAddress).port = port;
}

async function homePage(ex: HttpExchange): Promise<string> {
  const who = currentAuthentication(ex);
  const body = who
    ? `<p id="who">Signed in as <strong>${escapeHtml(who.username)}</strong>.</p>
<form method="post" action="/logout">${await csrfHiddenInput(ex)}<button type="submit">Sign out</button></form>`
    : `<p id="who">Not signed in. <a href="/login">Sign in</a>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Platform</title></head>
<body>
${body}
</body></html>`;
}
