import { createHttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import {
  authzPlugin,
  resourcesPlugin,
  policyCenterPlugin,
  createIdentityPlugin,
  mfaPlugin,
  recoveryCodesPlugin,
  totpPlugin,
  createPlatform,
  createPromptInspectionPlugin,
  currentAuthentication,
  type Platform,
  type PlatformPlugin,
} from "@keyward/core";
import { decisionsPlugin } from "@keyward/core/decisions";
import { promptGovernancePlugin } from "@keyward/core/governance";
import { addDemoAuthorizationRoutes, registerDemoOrders, seedDemoPolicies } from "./demo-authorization.js";
import { DEMO_CONTRACTS } from "./demo-contracts.js";
import { demoSecurityWithApps, seedDemoUsers } from "./demo-security.js";
import { homePage } from "./home-page.js";
import { commandEnvironmentPlugin } from "./command-environment.js";
import type { HostConfig } from "./host-config.js";

/** The assembled demo: platform, HTTP app and its routes, before it listens. */
export interface DemoPlatform {
  platform: Platform;
  app: ReturnType<typeof createHttpApp>["app"];
  routes: RouteRegistry;
  /** `/health/ready`'s view of a graceful shutdown: `beginShutdown()` when one starts. */
  readiness: ReturnType<typeof createHttpApp>["readiness"];
}

/**
 * Builds the demo on the embedded in-memory defaults, applying a host configuration module when
 * one is given: form login (session) at /login, REST login (JWT) at /api/login, seeded users, and
 * the AI security decisions (`decisionsPlugin`, the offline analyst by default).
 */
export async function buildDemoPlatform(host: HostConfig = {}, env = process.env): Promise<DemoPlatform> {
  const platform = createPlatform({
    plugins: demoPlugins(host),
    properties: host.properties,
    ...(host.source === undefined ? {} : { propertiesOrigin: `config module ${host.source}` }),
    env,
    register: host.register,
    overrides: host.overrides,
  });
  const routes = new RouteRegistry();
  routes.add({
    method: "GET",
    path: "/",
    handler: async (ex) => ex.html(200, await homePage(ex, currentAuthentication(ex))),
    description: "Home page",
    name: "app.home",
    meta: { contract: DEMO_CONTRACTS.home },
  });
  addAccountSecurityRoutes(routes);
  registerDemoOrders(platform);
  addDemoAuthorizationRoutes(routes, platform);
  host.routes?.(routes, platform);
  // createHttpApp serves the browser SDK and the page scripts (`/js/**`) the pages load. The plugins'
  // steps protect every request: identity's chains, and authz's caller for @Protectable services.
  // Made before start: its routes join the route table, which the start-up resource sync scans.
  const { app, readiness } = createHttpApp({ platform, routes });
  await platform.start();
  await seedDemoUsers(platform);
  await seedDemoPolicies(platform);
  return { platform, app, routes, readiness };
}

/** The demo's step-up routes: the account's security settings, for a session and for a bearer token. */
function addAccountSecurityRoutes(routes: RouteRegistry): void {
  const security = (ex: Parameters<typeof currentAuthentication>[0]) => {
    const who = currentAuthentication(ex);
    return {
      sensitive: "account security settings",
      username: who?.username,
      factors: who?.factors.map((f) => f.type),
    };
  };
  routes.add({
    method: "GET",
    path: "/account/security",
    handler: security,
    name: "account.security",
    meta: { contract: DEMO_CONTRACTS.security },
    description: "Step-up (session)",
  });
  routes.add({
    method: "GET",
    path: "/api/account/security",
    handler: security,
    name: "account.security-api",
    meta: { contract: DEMO_CONTRACTS.security },
    description: "Step-up (bearer)",
  });
  // POST twins for the SDK's step-up interceptor: a non-idempotent request is sent again only with an
  // Idempotency-Key (or the application's opt-in); the answer echoes the key and the JSON body.
  const change = async (ex: Parameters<typeof currentAuthentication>[0]) => ({
    ...security(ex),
    changed: await ex.fields(["json"]),
    idempotencyKey: ex.header("idempotency-key") ?? null,
  });
  routes.add({
    method: "POST",
    path: "/account/security",
    handler: change,
    name: "account.security-change",
    meta: { contract: DEMO_CONTRACTS.securityChange },
    description: "Step-up POST (session)",
  });
  routes.add({
    method: "POST",
    path: "/api/account/security",
    handler: change,
    name: "account.security-change-api",
    meta: { contract: DEMO_CONTRACTS.securityChange },
    description: "Step-up POST (bearer)",
  });
}

/**
 * The platform's modules as `platform start` and `platform serve` run them, with the host's chains
 * (`security`, default the demo's layout), then the host configuration's plugins (also what
 * `platform doctor` judges against).
 */
export function demoPlugins(host: HostConfig): PlatformPlugin[] {
  return [
    httpPlugin,
    createIdentityPlugin({ security: host.security ?? demoSecurityWithApps }),
    mfaPlugin,
    // Authenticator apps (TOTP) as a factor of the demo's MFA flows, enrolled at /api/account/factors/totp.
    totpPlugin,
    // Recovery codes (RECOVERY_CODE) for a lost factor, made at /api/account/recovery-codes.
    recoveryCodesPlugin,
    authzPlugin,
    // Managed resources: the scanned routes and @Protectable methods, their lifecycle and admin API.
    resourcesPlugin,
    // The Policy Center console at /admin/policy-center (resources and policies, ADMIN only).
    policyCenterPlugin,
    // The AI security decisions (the built-in analyst unless configured): events off the request
    // path decide zero-trust actions; platform.security.decision.enabled=false switches it off.
    decisionsPlugin,
    // Prompt governance: the release registry of the decision bundles (v19 ACTIVE, v20 AVAILABLE at
    // first start), its evidence gate, rollbacks and emergency stops.
    promptGovernancePlugin,
    // The prompt inspector: the automatic round over sealed packages, canary health and the
    // inspection API; SOURCE_TRUTH checks facts against the demo's own users and decision history.
    createPromptInspectionPlugin({ sampleFactSource: true }),
    // Declares the command's own PLATFORM_* variables, so the start does not warn of them.
    commandEnvironmentPlugin,
    ...(host.plugins ?? []),
  ];
}
