import { createHttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import {
  authzPlugin,
  createIdentityPlugin,
  createPlatform,
  mfaPlugin,
  type Platform,
  platformPasswordHasher,
} from "@keyward/core";
import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import { OneTimeTokenDelivery, PasswordHasher, UserRepository } from "@keyward/core/ports";
import { addHostRoutes } from "./host-pages.js";
import { seedHostPolicies } from "./host-policies.js";
import { hostSecurity } from "./host-security.js";
import { type HostUserRecord, HostUsers } from "./host-users.js";
import { existingUsers } from "./host-users-data.js";
import { LegacyPasswordHasher } from "./legacy-password-hasher.js";
import { MailDelivery, type Mailer } from "./mail-delivery.js";

/** What the service is started with. */
export interface HostAppOptions {
  /** Where codes and links are mailed; default the platform's development outbox (`.platform/outbox.jsonl`). */
  mailer?: Mailer | undefined;
  /** Properties set in code (they win over `PLATFORM_*` variables), e.g. `platform.server.public-url`. */
  properties?: Record<string, unknown> | undefined;
  /** The accounts; default the ones the service had before (`existingUsers`). */
  records?: readonly HostUserRecord[] | undefined;
}

/** The started service: the platform, the HTTP app to listen with, and the service's own user store. */
export interface HostApp {
  platform: Platform;
  app: ReturnType<typeof createHttpApp>["app"];
  users: HostUsers;
}

/**
 * Builds and starts the service: the identity module with its chains (hostSecurity), MFA, and the
 * authorization module; its own users, hasher and mail in place of the platform's defaults; its
 * routes; then the policies it keeps in code, seeded through the PAP.
 */
export async function createHostApp(options: HostAppOptions = {}): Promise<HostApp> {
  const users = new HostUsers({
    ids: new CryptoIdGenerator(),
    clock: new SystemClock(),
    records: options.records ?? existingUsers(),
  });
  const platform = createPlatform({
    plugins: [httpPlugin, createIdentityPlugin({ security: hostSecurity }), mfaPlugin, authzPlugin],
    // Closed by default: a request no policy matches is refused (the spec's default is ALLOW).
    properties: { "platform.policy.no-match-decision": "DENY", ...options.properties },
    // The host's replacements win over every default, wherever the plugins stand.
    overrides: (ports, properties) => {
      ports.override(UserRepository, { useValue: users });
      ports.override(PasswordHasher, {
        useValue: new LegacyPasswordHasher(platformPasswordHasher(properties)),
      });
      if (options.mailer)
        ports.override(OneTimeTokenDelivery, { useValue: new MailDelivery(options.mailer) });
    },
  });
  const routes = new RouteRegistry();
  addHostRoutes(routes);
  // Before start: the routes join the one route table the platform scans at start.
  const { app } = createHttpApp({ platform, routes });
  await platform.start();
  await seedHostPolicies(platform);
  return { platform, app, users };
}
