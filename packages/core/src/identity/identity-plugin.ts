import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { PasswordAuthenticator } from "./authentication/password-authenticator.js";
import { SignInFailureHook } from "./authentication/sign-in-failure-hook.js";
import { registerFilterChains } from "./chain/register-filter-chains.js";
import { SignInMethod } from "./chain/sign-in-method.js";
import { SecurityConfiguration, SecurityRegistry } from "./dsl/security-registry.js";
import { formSignInMethod, restSignInMethod } from "./login/password-sign-in-methods.js";
import { registerOttDefaults } from "./ott/register-ott-defaults.js";
import { ottSignInMethod } from "./ott/ott-sign-in-method.js";
import { registerPasskeyDefaults } from "./passkey/register-passkey-defaults.js";
import { passkeySignInMethod } from "./passkey/passkey-sign-in-method.js";
import { HttpSessionSecurityContextRepository } from "./context/http-session-security-context-repository.js";
import { SecurityContextRepository } from "./context/security-context-repository.js";
import { CsrfTokenRepository } from "./csrf/csrf-token-repository.js";
import { SessionCsrfTokenRepository } from "./csrf/session-csrf-token-repository.js";
import { OTT_PROPERTIES } from "./ott/ott.properties.js";
import { PASSKEY_PROPERTIES } from "./passkey/passkey.properties.js";
import { PasswordHasher } from "./password/password-hasher.js";
import { registerUserAdminDefaults } from "./users/admin/register-user-admin-defaults.js";
import { PUBLIC_URL } from "./public-url.properties.js";
import {
  PASSWORD_HASHER_PROPERTIES,
  scryptOptionsFromProperties,
} from "./password/password-hasher.properties.js";
import { ScryptPasswordHasher } from "./password/scrypt-password-hasher.js";
import { InMemorySessionStore } from "./session/in-memory-session-store.js";
import { PrimaryAuthenticator } from "./login/primary-authenticator.js";
import { SessionManager } from "./session/session-manager.js";
import { SESSION_PROPERTIES, sessionOptionsFromProperties } from "./session/session.properties.js";
import { SessionStore } from "./session/session-store.js";
import { InMemoryLoginThrottle } from "./throttle/in-memory-login-throttle.js";
import { LoginThrottle } from "./throttle/login-throttle.js";
import { THROTTLE_PROPERTIES, throttleOptionsFromProperties } from "./throttle/login-throttle.properties.js";
import { InMemoryRefreshTokenStore } from "./tokens/in-memory-refresh-token-store.js";
import { InMemoryRevokedAccessTokenStore } from "./tokens/in-memory-revoked-token-store.js";
import { ConfiguredJwtKeySource } from "./tokens/configured-jwt-key-source.js";
import { JwtKeySource } from "./tokens/jwt-key-source.js";
import { JWT_PROPERTIES, jwtOptionsFromProperties } from "./tokens/jwt-properties.js";
import { RefreshTokenStore } from "./tokens/refresh-token-store.js";
import { RevokedAccessTokenStore } from "./tokens/revoked-token-store.js";
import { TokenService } from "./tokens/token-service.js";
import { InMemoryUserRepository } from "./users/in-memory-user-repository.js";
import { UserRepository } from "./users/user-repository.js";

/** Options of the identity module. */
export interface IdentityPluginOptions {
  /** The registry DSL: `(r) => r.form().session().rest().oauth2().build()`. */
  security?: (registry: SecurityRegistry) => SecurityConfiguration;
}

/**
 * The identity module: users, password hashing, throttling, sessions, CSRF, tokens and the security
 * filter chains built from the registry DSL. Every port default is registered only where the host
 * registered nothing; the chains are assembled at start (after the token keys are loaded) and
 * exposed as the FilterChainProxy the HTTP binding runs on every request.
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
    register(ctx) {
      const { properties } = ctx;
      ctx.registerDefault(UserRepository, {
        useFactory: (c) =>
          new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
      });
      ctx.registerDefault(PasswordHasher, {
        useFactory: () => new ScryptPasswordHasher(scryptOptionsFromProperties(properties)),
      });
      ctx.registerDefault(LoginThrottle, {
        useFactory: (c) =>
          new InMemoryLoginThrottle({
            clock: c.resolve(Clock),
            ...throttleOptionsFromProperties(properties),
          }),
      });
      ctx.registerDefault(SessionStore, {
        useFactory: (c) => new InMemorySessionStore({ clock: c.resolve(Clock) }),
      });
      ctx.registerDefault(SessionManager, {
        useFactory: (c) =>
          new SessionManager({
            store: c.resolve(SessionStore),
            clock: c.resolve(Clock),
            ids: c.resolve(IdGenerator),
            ...sessionOptionsFromProperties(properties),
          }),
      });
      ctx.registerDefault(CsrfTokenRepository, {
        useFactory: (c) =>
          new SessionCsrfTokenRepository({
            sessions: c.resolve(SessionManager),
            ids: c.resolve(IdGenerator),
          }),
      });
      ctx.registerDefault(SecurityContextRepository, {
        useFactory: (c) =>
          new HttpSessionSecurityContextRepository(c.resolve(SessionManager), c.resolve(CsrfTokenRepository)),
      });
      ctx.registerDefault(RefreshTokenStore, {
        useFactory: (c) => new InMemoryRefreshTokenStore({ clock: c.resolve(Clock) }),
      });
      ctx.registerDefault(RevokedAccessTokenStore, {
        useFactory: (c) => new InMemoryRevokedAccessTokenStore({ clock: c.resolve(Clock) }),
      });
      ctx.registerDefault(JwtKeySource, {
        useFactory: (c) =>
          new ConfiguredJwtKeySource({ ...jwtOptionsFromProperties(properties), logger: c.resolve(Logger) }),
      });
      ctx.registerDefault(PrimaryAuthenticator, {
        useFactory: (c) =>
          new PasswordAuthenticator({
            users: c.resolve(UserRepository),
            hasher: c.resolve(PasswordHasher),
            throttle: c.resolve(LoginThrottle),
            clock: c.resolve(Clock),
            audit: c.resolve(AuditSink),
            // Members come from later plugins (MFA's sign-in history): read at each failure.
            onKnownUserFailure: async (userId) => {
              const hooks = c.isRegistered(SignInFailureHook, true) ? c.resolveAll(SignInFailureHook) : [];
              for (const hook of hooks) await hook.onKnownUserFailure(userId).catch(() => {});
            },
          }),
      });
      registerOttDefaults(ctx);
      registerPasskeyDefaults(ctx);
      registerUserAdminDefaults(ctx);
      // The sign-in methods: one member each (a plugin adds its own the same way; MFA adds `.mfa()`).
      for (const method of [formSignInMethod, restSignInMethod, ottSignInMethod, passkeySignInMethod]) {
        ctx.registerMember(SignInMethod, { useValue: method });
      }
      if (options.security) {
        const configuration = options.security(new SecurityRegistry());
        ctx.registerDefault(SecurityConfiguration, { useValue: configuration });
      }
      ctx.onStart("token-keys", async (c) => {
        if (c.isRegistered(TokenService, false)) return;
        const jwt = jwtOptionsFromProperties(properties);
        const keys = await c.resolve(JwtKeySource).load();
        c.registerInstance(
          TokenService,
          new TokenService({
            ...jwt,
            keys,
            clock: c.resolve(Clock),
            ids: c.resolve(IdGenerator),
            refreshTokens: c.resolve(RefreshTokenStore),
            revokedAccessTokens: c.resolve(RevokedAccessTokenStore),
            audit: c.resolve(AuditSink),
          }),
        );
      });
      ctx.onStart("filter-chains", (c) => registerFilterChains(c, ctx));
    },
  };
}

/** The identity module with no chains configured (ports only). */
export const identityPlugin: PlatformPlugin = createIdentityPlugin();
