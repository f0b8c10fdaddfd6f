import { RouteTable } from "../web/route-table.js";
import { RequestPipelineContributor } from "../web/request-pipeline.js";
import { identityPipelineContributor } from "./chain/identity-pipeline-steps.js";
import { WEB_ERROR_CODES } from "../web/web-error-codes.js";
import { IDENTITY_ERROR_CODES } from "./identity-error-codes.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { registerAccountDefaults } from "./register-account-defaults.js";
import { registerStandingDefaults } from "./users/standing/register-standing-defaults.js";
import { registerSessionDefaults } from "./session/register-session-defaults.js";
import { registerTokenDefaults } from "./tokens/register-token-defaults.js";
import { registerFilterChains } from "./chain/register-filter-chains.js";
import { SignInMethod } from "./chain/sign-in-method.js";
import { SecurityConfiguration, SecurityRegistry } from "./dsl/security-registry.js";
import { SecurityRegistryMethod } from "./dsl/security-registry-method.js";
import { formSignInMethod, restSignInMethod } from "./login/password-sign-in-methods.js";
import { registerOttDefaults } from "./ott/register-ott-defaults.js";
import { ottSignInMethod } from "./ott/ott-sign-in-method.js";
import { registerPasskeyDefaults } from "./passkey/register-passkey-defaults.js";
import { passkeySignInMethod } from "./passkey/passkey-sign-in-method.js";
import { OTT_PROPERTIES } from "./ott/ott.properties.js";
import { PASSKEY_PROPERTIES } from "./passkey/passkey.properties.js";
import { registerUserAdminDefaults } from "./users/admin/register-user-admin-defaults.js";
import { registerPasswordSelfService } from "./users/self-service/register-password-self-service.js";
import { PUBLIC_URL } from "./public-url.properties.js";
import { PASSWORD_HASHER_PROPERTIES } from "./password/password-hasher.properties.js";
import { SESSION_PROPERTIES } from "./session/session.properties.js";
import { THROTTLE_PROPERTIES } from "./throttle/login-throttle.properties.js";
import { JWT_PROPERTIES } from "./tokens/jwt-properties.js";

/** Options of the identity module. */
export interface IdentityPluginOptions {
  /**
   * The registry DSL: `(r) => r.form().session().rest().oauth2().build()`. Called when the platform
   * starts (after every plugin registered), with the methods its plugins contribute (`.mfa()` with
   * mfaPlugin); an error it throws fails the start.
   */
  security?: (registry: SecurityRegistry) => SecurityConfiguration;
}

/**
 * The identity module: users, password hashing, throttling, sessions, CSRF, tokens and the security
 * filter chains built from the registry DSL. Every port default is registered only where the host
 * registered nothing; the chains are assembled at start (after the token keys are loaded) and
 * exposed as the FilterChainProxy; its steps of the request pipeline run the chains on every request.
 */
export function createIdentityPlugin(options: IdentityPluginOptions = {}): PlatformPlugin {
  return {
    id: "identity",
    properties: [
      ...PASSWORD_HASHER_PROPERTIES,
      ...SESSION_PROPERTIES,
      ...THROTTLE_PROPERTIES,
      ...JWT_PROPERTIES,
      ...OTT_PROPERTIES,
      ...PASSKEY_PROPERTIES,
      PUBLIC_URL,
    ],
    // Identity's filters also answer the web model's codes (a malformed body, a refused path).
    errorCodes: [WEB_ERROR_CODES, IDENTITY_ERROR_CODES],
    register(ctx) {
      registerAccountDefaults(ctx);
      registerStandingDefaults(ctx);
      registerSessionDefaults(ctx);
      registerTokenDefaults(ctx);
      registerOttDefaults(ctx);
      registerPasskeyDefaults(ctx);
      registerUserAdminDefaults(ctx);
      registerPasswordSelfService(ctx);
      // The one route table the chains declare their routes in (the HTTP binding registers it too).
      ctx.registerDefault(RouteTable, { useFactory: () => new RouteTable() });
      // The sign-in methods: one member each (a plugin adds its own the same way; MFA adds `.mfa()`).
      for (const method of [formSignInMethod, restSignInMethod, ottSignInMethod, passkeySignInMethod]) {
        ctx.registerMember(SignInMethod, { useValue: method });
      }
      const security = options.security;
      if (security) {
        // Run once every plugin has registered (at start): the registry has exactly the methods this
        // platform's plugins contribute, wherever they stand in the list.
        ctx.registerDefault(SecurityConfiguration, {
          useFactory: (c) =>
            security(
              new SecurityRegistry(
                c.isRegistered(SecurityRegistryMethod, true) ? c.resolveAll(SecurityRegistryMethod) : [],
              ),
            ),
        });
      }
      ctx.onStart("filter-chains", (c) => registerFilterChains(c, ctx));
      // Its steps of the request pipeline: firewall, chain, authentication, checkpoint, entry, authorization.
      ctx.registerMember(RequestPipelineContributor, { useValue: identityPipelineContributor });
    },
  };
}

/** The identity module with no chains configured (ports only). */
export const identityPlugin: PlatformPlugin = createIdentityPlugin();
