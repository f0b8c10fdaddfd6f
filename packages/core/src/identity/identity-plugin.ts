import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { PasswordAuthenticator } from "./authentication/password-authenticator.js";
import { subjectStatusChecksOf, subjectStatusGate } from "./authentication/subject-status-check.js";
import { assembleChain } from "./chain/assemble-chain.js";
import { FilterChainProxy } from "./chain/filter-chain-proxy.js";
import { HttpSessionSecurityContextRepository } from "./context/http-session-security-context-repository.js";
import { SecurityContextRepository } from "./context/security-context-repository.js";
import { CsrfTokenRepository } from "./csrf/csrf-token-repository.js";
import { SessionCsrfTokenRepository } from "./csrf/session-csrf-token-repository.js";
import { type ChainDefinition, SecurityConfiguration, SecurityRegistry } from "./dsl/security-registry.js";
import { OTT_PROPERTIES } from "./ott/ott.properties.js";
import { ottDependencies, registerOttDefaults } from "./ott/register-ott-defaults.js";
import { PASSKEY_PROPERTIES } from "./passkey/passkey.properties.js";
import { passkeyServiceFor, registerPasskeyDefaults } from "./passkey/register-passkey-defaults.js";
import { PasswordHasher } from "./password/password-hasher.js";
import type { ChainDependencies } from "./chain/chain-dependencies.js";
import { StepUpCoalescer } from "../mfa/flow/step-up-coalescer.js";
import { FactorContextRepository } from "../mfa/state/factor-context-repository.js";
import { isTerminal } from "../mfa/state/mfa-state.js";
import { isBearerAuthentication } from "./tokens/bearer-authentication.js";
import { DEFAULT_PROCESSING_URL } from "./chain/method-filters.js";
import { DEFAULT_URLS } from "./dsl/default-urls.js";
import type { PasskeyLoginOptions } from "./dsl/ott-options.js";
import { MfaGate } from "../mfa/flow/mfa-gate.js";
import { availableFactorsFor } from "../mfa/decision/default-mfa-policy-provider.js";
import { mfaStepEndpoints, nextStepUrl } from "../mfa/flow/mfa-answers.js";
import { PasskeyCredentialRepository } from "./passkey/passkey-credential-repository.js";
import type { MfaFlow } from "../mfa/flow/mfa-flow.js";
import { MfaRuntime } from "../mfa/flow/mfa-runtime.js";
import { MFA_PERFORMANCE_ALERT } from "../mfa/events/mfa-events.properties.js";
import { ADAPTIVE_PROPERTIES } from "../mfa/adaptive/risk-thresholds.js";
import { SignInHistoryStore } from "../mfa/adaptive/sign-in-history-store.js";
import {
  MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED,
  MFA_BUILTIN_ANALYZER,
  MFA_POLICY,
} from "../mfa/mfa-policy.properties.js";
import { DEVICE_COOKIE_PROPERTIES } from "../mfa/device/device-cookie.properties.js";
import { MFA_PAGE_PROPERTIES } from "../mfa/mfa-pages.properties.js";
import { MFA_PROPERTIES } from "../mfa/mfa.properties.js";
import { mfaDependencies, registerMfaDefaults } from "../mfa/register-mfa-defaults.js";
import { LogoutHook } from "./login/logout-hook.js";
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
      ...MFA_PROPERTIES,
      ...MFA_PAGE_PROPERTIES,
      MFA_PERFORMANCE_ALERT,
      MFA_POLICY,
      MFA_BUILTIN_ANALYZER,
      MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED,
      ...ADAPTIVE_PROPERTIES,
      ...DEVICE_COOKIE_PROPERTIES,
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
            onKnownUserFailure: (userId) => {
              const clock = c.resolve(Clock);
              return c.resolve(SignInHistoryStore).recordFailure({ userId, at: clock.now() });
            },
          }),
      });
      registerOttDefaults(ctx);
      registerPasskeyDefaults(ctx);
      registerMfaDefaults(ctx);
      registerUserAdminDefaults(ctx);
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
      ctx.onStart("filter-chains", (c) => {
        if (c.isRegistered(FilterChainProxy, false)) return;
        const configuration = c.isRegistered(SecurityConfiguration, false)
          ? c.resolve(SecurityConfiguration)
          : { chains: [] };
        const flows: MfaFlow[] = [];
        // Members come from later plugins (zero trust); read once the container is complete.
        const statusCheck = subjectStatusGate(subjectStatusChecksOf(c));
        // Members come from later plugins (MFA); read once, at the first logout.
        let logoutHooks: readonly LogoutHook[] | undefined;
        const deps: ChainDependencies = {
          logoutHooks: () =>
            (logoutHooks ??= c.isRegistered(LogoutHook, true) ? c.resolveAll(LogoutHook) : []),
          authenticator: c.resolve(PrimaryAuthenticator),
          sessions: c.resolve(SessionManager),
          csrfTokens: c.resolve(CsrfTokenRepository),
          sessionRepository: c.resolve(SecurityContextRepository),
          tokens: c.resolve(TokenService),
          audit: c.resolve(AuditSink),
          clock: c.resolve(Clock),
          statusCheck,
          ott: () => ottDependencies(c, ctx),
          passkeyService: passkeyServiceFor(c, ctx),
          mfa: () => mfaDependencies(c, ctx.properties, (flow) => flows.push(flow)),
          container: c,
          ...passkeyLoginOf(configuration.chains),
        };
        // MFA flows first: every single-auth chain then hands challenged users to the first flow.
        const mfaChains = configuration.chains
          .filter((d) => d.kind === "mfa")
          .map((d) => assembleChain(d, deps));
        const runtime = flows.length > 0 ? c.resolve(MfaRuntime) : undefined;
        const gates = new Map<MfaFlow, MfaGate>();
        // A chain hands challenged users to the first flow of its own state type (a token chain to a
        // token flow, whose answers are JSON and end in tokens), else to the first flow.
        deps.mfaGate = (state) => {
          const flow = flows.find((f) => f.stateKind === state) ?? flows[0];
          if (!runtime || !flow) return undefined;
          const gate = gates.get(flow) ?? new MfaGate(runtime, flow);
          gates.set(flow, gate);
          return gate;
        };
        const firstFlow = flows[0];
        if (runtime && firstFlow) {
          const enrolled = availableFactorsFor({ passkeys: c.resolve(PasskeyCredentialRepository) });
          // Concurrent 401s of one sign-in share one challenge (one MFA session, one code).
          const contexts = c.resolve(FactorContextRepository);
          const clock = c.resolve(Clock);
          const coalescer = new StepUpCoalescer(clock, async ({ mfaSessionId }) => {
            const ctx = await contexts.find(mfaSessionId);
            return ctx !== undefined && !isTerminal(ctx.state);
          });
          const sessions = c.resolve(SessionManager);
          deps.stepUp = async (exchange, authentication) => {
            // A refused user gets the refusal, not a challenge (no code is sent).
            await statusCheck({ checkpoint: "step-up", authentication, exchange });
            const signIn = isBearerAuthentication(authentication)
              ? `token:${authentication.tokenId}`
              : await sessions.current(exchange).then((s) => (s ? `session:${s.id}` : undefined));
            return coalescer.start(signIn, exchange, async () => {
              const { context: ctx, binding } = await runtime.beginStepUp(
                exchange,
                authentication,
                firstFlow,
                await enrolled(authentication.userId),
              );
              return {
                mfaUrl: nextStepUrl(ctx, firstFlow),
                mfaSessionId: ctx.mfaSessionId,
                currentState: ctx.state,
                endpoints: mfaStepEndpoints(firstFlow),
                // A bearer client holds its tokens in the open anyway: it may keep no cookies and send
                // this as X-MFA-Binding. A session's binding stays in the HttpOnly cookie.
                ...(isBearerAuthentication(authentication) ? { mfaBinding: binding } : {}),
              };
            });
          };
        }
        const others = configuration.chains
          .filter((d) => d.kind !== "mfa")
          .map((d) => assembleChain(d, deps));
        c.registerInstance(FilterChainProxy, new FilterChainProxy([...mfaChains, ...others]));
      });
    },
  };
}

/** The identity module with no chains configured (ports only). */
export const identityPlugin: PlatformPlugin = createIdentityPlugin();

/** The sign-in endpoints of the first passkey chain, if any (the MFA login page offers autofill). */
function passkeyLoginOf(chains: readonly ChainDefinition[]): Pick<ChainDependencies, "passkeyLogin"> {
  const chain = chains.find((d) => d.kind === "passkey");
  if (!chain) return {};
  const options = chain.options as PasskeyLoginOptions;
  return {
    passkeyLogin: {
      assertionOptions: options.assertionOptionsEndpointValue ?? DEFAULT_URLS.passkeyAssertionOptions,
      loginProcessing: options.loginProcessingUrlValue ?? DEFAULT_PROCESSING_URL.passkey,
    },
  };
}
